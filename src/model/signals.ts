/**
 * The confidence signals, once: every name a report, the CLI, the CSV export and the views use,
 * with its labels and what it is. The report schema's enum, the CLI's keys, the CSV columns and
 * every chart legend derive from SIGNALS; colours are the theme's (src/ui/charts/signal-styles.ts).
 *
 * Sem1, Sem2 and verbalized are the paper's three and fixed fields of every report question;
 * the others live in ReportQuestion.signals (stated probability and logprob from multiple-choice
 * runs, entropy confidence from the classes of every question).
 */

export const SIGNAL_NAMES = ['sem1', 'sem2', 'verbalized', 'stated', 'logprob', 'entropyConfidence'] as const;

/** Confidence signals a report can hold; only those present in a model's rows are scored. */
export type SignalName = (typeof SIGNAL_NAMES)[number];

/** The paper's three signals: fixed fields of every report question. */
export type PaperSignal = 'sem1' | 'sem2' | 'verbalized';

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
}

/** Every signal, in the order they are listed everywhere: the paper's three first. */
export const SIGNALS: readonly SignalInfo[] = [
  { name: 'sem1', label: 'Sem1 (same-sample)', short: 'Sem1', abbr: 'Sem1', paper: true, description: 'Share of the samples in the modal class: the answer is chosen and scored on the same samples.' },
  { name: 'sem2', label: 'Sem2 (held-out)', short: 'Sem2', abbr: 'Sem2', paper: true, description: 'The modal class of half the samples, scored by its share of the other half, averaged over random splits.' },
  { name: 'verbalized', label: 'Verbalized', short: 'Verbalized', abbr: 'Verb.', paper: true, description: 'The mean confidence the samples stated (a sample stating none counts 1.0).' },
  { name: 'stated', label: 'Stated probability', short: 'Stated', abbr: 'Stated', paper: false, description: 'The probability a multiple-choice reply states for the option it chose.' },
  { name: 'logprob', label: 'Token log-prob', short: 'Log-prob', abbr: 'Logprob', paper: false, description: "The probability of the chosen option's token in a greedy reply." },
  { name: 'entropyConfidence', label: 'Entropy confidence', short: 'Entropy', abbr: 'Entropy', paper: false, description: 'exp(−H) of the semantic entropy H over the classes: 1 when every sample agrees.' },
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
