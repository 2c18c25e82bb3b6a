/**
 * The confidence signals, once: every name a report, the CLI, the CSV export and the views use,
 * with its labels and what it is. The report schema's enum, the CLI's keys, the CSV columns and
 * every chart legend derive from SIGNALS; colours are the theme's (src/ui/charts/signal-styles.ts).
 *
 * Sem1, Sem2 and verbalized are the paper's three and fixed fields of every report question;
 * the others live in ReportQuestion.signals (stated probability and logprob from multiple-choice
 * runs, entropy confidence from the classes of every question, the black-box uncertainty signals
 * of issue 29 from the classes and the answers).
 *
 * What a question stores for a signal is always a confidence in [0, 1], larger = more confident:
 * for a signal whose raw score is an uncertainty (semantic entropy, NumSets, EigV, Deg, Ecc) that
 * is its confidence form (core/black-box-uncertainty.ts blackBoxConfidence), so every ranking
 * metric and recalibration map reads every signal the same way. A confidence form is not a
 * probability (`probability: false`): its raw ECE means nothing; it is judged by its ranking
 * metrics and by its ECE after recalibration. New names are appended, never inserted: the signal
 * comparison seeds each signal's test by its position among the compared ones.
 */
import type { BlackBoxSignal } from '../core/black-box-uncertainty';

export const SIGNAL_NAMES = [
  'sem1',
  'sem2',
  'verbalized',
  'stated',
  'logprob',
  'entropyConfidence',
  'semantic_entropy',
  'num_sets',
  'eigv',
  'degree',
  'eccentricity',
  'lexical_similarity',
  'p_true',
  'semantic_entropy_weighted',
] as const;

/** Confidence signals a report can hold; only those present in a model's rows are scored. */
export type SignalName = (typeof SIGNAL_NAMES)[number];

/** The paper's three signals: fixed fields of every report question. */
export type PaperSignal = 'sem1' | 'sem2' | 'verbalized';

/**
 * What a signal is computed from: the clustering's partition (each sample's class), the sampled
 * answers' text, the samples' stated confidences, a multiple-choice reply (stated probability,
 * token probability), or a pairwise similarity of the samples (entailment probabilities or
 * embedding cosines; not stored by any run yet, see `similarity` below), or the extra p(True)
 * request a run asks only where chosen (rows' p_true, pipeline/p-true.ts), or each sample's
 * sequence log-probability where the run asked for logprobs (rows' sequence_logprobs).
 */
export type SignalInput = 'partition' | 'answers' | 'verbalized' | 'reply' | 'similarity' | 'p-true' | 'logprobs';

export interface SignalInfo {
  name: SignalName;
  /** Full name, for legends and titles. */
  label: string;
  /** Column headers and chart keys. */
  short: string;
  /** The narrowest form, for a per-signal line inside a table cell. */
  abbr: string;
  description: string;
  /** One of the paper's three (always scored, printed by `semece score`). */
  paper: boolean;
  /**
   * Direction of the signal's raw score: 'confidence' (larger = more confident) or 'uncertainty'
   * (larger = less). A question stores the confidence form either way (see the file comment).
   */
  direction: 'confidence' | 'uncertainty';
  /**
   * Whether the stored value is read as a probability of being correct, so its raw ECE is a
   * calibration claim. False for a confidence form of an uncertainty score: only its ranking
   * metrics and its recalibrated ECE are meaningful, and the signal comparison leaves it out.
   */
  probability: boolean;
  /** What it is computed from in this build. */
  inputs: readonly SignalInput[];
  /**
   * The input it uses instead of the partition where every question's row holds it: the graph
   * methods over an embedding clustering's answer cosines (rows' answer_similarity); otherwise the
   * clustering's partition, the 0/1 same-class matrix. The report says which (graphSimilarity).
   */
  preferredInput?: 'similarity';
  /** Its key in core/black-box-uncertainty.ts, for the signals computed there. */
  blackBox?: BlackBoxSignal;
}

/** Every signal, in the order they are listed everywhere: the paper's three first. */
export const SIGNALS: readonly SignalInfo[] = [
  { name: 'sem1', label: 'Sem1 (same-sample)', short: 'Sem1', abbr: 'Sem1', paper: true, direction: 'confidence', probability: true, inputs: ['partition'], description: 'Share of the samples in the modal class: the answer is chosen and scored on the same samples.' },
  { name: 'sem2', label: 'Sem2 (held-out)', short: 'Sem2', abbr: 'Sem2', paper: true, direction: 'confidence', probability: true, inputs: ['partition'], description: 'The modal class of half the samples, scored by its share of the other half, averaged over random splits.' },
  { name: 'verbalized', label: 'Verbalized', short: 'Verbalized', abbr: 'Verb.', paper: true, direction: 'confidence', probability: true, inputs: ['verbalized'], description: 'The mean confidence the samples stated (a sample stating none counts 1.0).' },
  { name: 'stated', label: 'Stated probability', short: 'Stated', abbr: 'Stated', paper: false, direction: 'confidence', probability: true, inputs: ['reply'], description: 'The probability a multiple-choice reply states for the option it chose.' },
  { name: 'logprob', label: 'Token log-prob', short: 'Log-prob', abbr: 'Logprob', paper: false, direction: 'confidence', probability: true, inputs: ['reply'], description: "The probability of the chosen option's token in a greedy reply." },
  // Read as a probability, as every report has read it (its ECE and the signal comparison are
  // unchanged); the same number as semantic_entropy's confidence form, which is not one.
  { name: 'entropyConfidence', label: 'Entropy confidence', short: 'Entropy', abbr: 'Entropy', paper: false, direction: 'confidence', probability: true, inputs: ['partition'], description: 'exp(−H) of the semantic entropy H over the classes: 1 when every sample agrees.' },
  { name: 'semantic_entropy', label: 'Semantic entropy', short: 'SE', abbr: 'SE', paper: false, direction: 'uncertainty', probability: false, inputs: ['partition'], blackBox: 'semanticEntropy', description: 'Discrete semantic entropy H of the class frequencies (Farquhar et al. 2024), stored as exp(−H); not a probability.' },
  { name: 'num_sets', label: 'Number of semantic sets', short: 'NumSets', abbr: 'NumSets', paper: false, direction: 'uncertainty', probability: false, inputs: ['partition'], blackBox: 'numSets', description: 'The number K of non-empty classes (Lin, Trivedi & Sun 2023), stored as 1/K; not a probability.' },
  { name: 'eigv', label: 'EigV (Laplacian eigenvalues)', short: 'EigV', abbr: 'EigV', paper: false, direction: 'uncertainty', probability: false, inputs: ['partition'], preferredInput: 'similarity', blackBox: 'eigV', description: "Sum of max(0, 1 − λ) over the graph Laplacian's eigenvalues (Lin, Trivedi & Sun 2023), over the embedding clustering's answer cosines where recorded, else the clustering's partition; stored as 1/EigV; not a probability." },
  { name: 'degree', label: 'Degree (Deg)', short: 'Deg', abbr: 'Deg', paper: false, direction: 'uncertainty', probability: false, inputs: ['partition'], preferredInput: 'similarity', blackBox: 'deg', description: 'One minus the mean pairwise similarity (Lin, Trivedi & Sun 2023), over the embedding clustering\'s answer cosines where recorded, else the clustering\'s partition; stored as 1 − Deg; not a probability.' },
  { name: 'eccentricity', label: 'Eccentricity (Ecc)', short: 'Ecc', abbr: 'Ecc', paper: false, direction: 'uncertainty', probability: false, inputs: ['partition'], preferredInput: 'similarity', blackBox: 'ecc', description: "Spread of the samples' spectral embedding (Lin, Trivedi & Sun 2023), over the embedding clustering's answer cosines where recorded, else the clustering's partition; stored as 1/(1 + Ecc²); not a probability." },
  { name: 'lexical_similarity', label: 'Lexical similarity (ROUGE-L)', short: 'Lexical', abbr: 'Lex.', paper: false, direction: 'confidence', probability: false, inputs: ['answers'], blackBox: 'lexicalSimilarity', description: 'Mean pairwise ROUGE-L F of the sampled answers (Fomicheva et al. 2020); a similarity, not a probability.' },
  { name: 'p_true', label: 'p(True)', short: 'p(True)', abbr: 'pTrue', paper: false, direction: 'confidence', probability: true, inputs: ['p-true'], description: 'The probability the model gives "True" when asked whether the proposed (most frequent) answer is true (Kadavath et al. 2022): from the verdict token\'s logprobs where returned, else the share of sampled True verdicts; an extra request per question.' },
  { name: 'semantic_entropy_weighted', label: 'Semantic entropy (likelihood-weighted)', short: 'SE (weighted)', abbr: 'SE-w', paper: false, direction: 'uncertainty', probability: false, inputs: ['partition', 'logprobs'], description: "Semantic entropy with each class's probability the sum of its members' sequence probabilities, normalised (Kuhn et al. 2023; Farquhar et al. 2024), where every sample has its log-probability; stored as exp(−H); not a probability." },
];

const byName = Object.fromEntries(SIGNALS.map((s) => [s.name, s])) as Record<SignalName, SignalInfo>;

export function signalInfo(name: SignalName): SignalInfo {
  return byName[name];
}

const column = <K extends 'label' | 'short' | 'abbr'>(key: K) =>
  Object.fromEntries(SIGNALS.map((s) => [s.name, s[key]])) as Record<SignalName, string>;

export const SIGNAL_LABEL = column('label');
export const SIGNAL_SHORT = column('short');
export const SIGNAL_ABBR = column('abbr');

/** The order signals are listed in (SIGNALS' order). */
export const SIGNAL_ORDER: readonly SignalName[] = SIGNALS.map((s) => s.name);

export const PAPER_SIGNALS = SIGNALS.filter((s) => s.paper).map((s) => s.name) as PaperSignal[];

export function isPaperSignal(name: SignalName): name is PaperSignal {
  return byName[name].paper;
}

export function isProbabilitySignal(name: SignalName): boolean {
  return byName[name].probability;
}

/** The signals a run with these inputs can give (each of the signal's inputs among them), in the table's order. */
export function signalsFrom(inputs: readonly SignalInput[]): SignalName[] {
  return SIGNALS.filter((s) => s.inputs.every((i) => inputs.includes(i))).map((s) => s.name);
}

/** The signals computed by core/black-box-uncertainty.ts, with their key there. */
export const BLACK_BOX_SIGNAL_NAMES: readonly SignalName[] = SIGNALS.filter((s) => s.blackBox).map((s) => s.name);

/** The signals other than the paper's three, held in ReportQuestion.signals. */
export const EXTRA_SIGNALS: readonly SignalName[] = SIGNALS.filter((s) => !s.paper).map((s) => s.name);

/**
 * What a signal is read from: a report question (ReportQuestion satisfies it). Spelled out here so
 * the signals table needs nothing from the report shapes that are built on it.
 */
export interface SignalCarrier {
  sem1: number;
  sem2: number;
  verbalized: number;
  entropy: number;
  signals?: Partial<Record<SignalName, number>>;
}

/**
 * Semantic entropy H (nats, over the non-empty classes) as a confidence: exp(−H). It is 1 when all
 * samples agree and 1/m when they are spread evenly over m classes; in general
 * 1/m ≤ exp(−H) ≤ Sem1 (since H ≥ −ln max p_k and H ≤ ln m), so it sits on the same 0–1 scale as
 * the frequencies it is compared with. exp(−H) is preferred over 1 − H/ln n because it does not
 * depend on n, so questions sampled with different n stay comparable.
 */
export function entropyConfidence(entropy: number): number {
  return Number.isFinite(entropy) && entropy >= 0 ? Math.exp(-entropy) : NaN;
}

/** A signal's value on one question; NaN when the question does not have it. */
export function signalValue(q: SignalCarrier, name: SignalName): number {
  if (isPaperSignal(name)) return q[name];
  const v = q.signals?.[name];
  if (v !== undefined) return v;
  return name === 'entropyConfidence' ? entropyConfidence(q.entropy) : NaN;
}

/** One column per signal that at least one question has (finite), in SIGNAL_NAMES order. */
export function signalColumns(questions: readonly SignalCarrier[]): Partial<Record<SignalName, Float64Array>> {
  const out: Partial<Record<SignalName, Float64Array>> = {};
  for (const name of SIGNAL_NAMES) {
    const col = Float64Array.from(questions, (q) => signalValue(q, name));
    if (col.some(Number.isFinite)) out[name] = col;
  }
  return out;
}
