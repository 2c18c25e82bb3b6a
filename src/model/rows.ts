/**
 * The data that flows between pipeline stages:
 * dataset → sample → cluster → grade → score → report.
 * Field names of the authors' row format are kept verbatim (snake_case) so their files
 * import and export without translation.
 */
import type { TokenLogprob } from './provider';

/** One question of a dataset. */
export interface Question {
  id: string;
  question: string;
  /** The reference answer. */
  answer: string;
  /** Other accepted answers (PopQA's possible_answers, TriviaQA aliases …). */
  aliases?: string[];
  /** Multiple-choice options, in order (A, B, C …). */
  options?: string[];
  category?: string;
  /** Other short columns kept for slicing the report (model/question-fields.ts; hub/catalogue.ts `slices`). */
  fields?: Record<string, string | number>;
}

export interface Dataset {
  name: string;
  questions: Question[];
  /** Where it came from: 'demo', a file name, a hub dataset ("hub:owner/name:config/split") … */
  source: string;
  /** Set when the questions are a drawn subset of a larger set: how to draw the same ones again. */
  subset?: QuestionSubset;
}

/**
 * A seeded draw of some questions from a larger set (src/formats/datasets/subset.ts). The ids
 * are the questions measured, in the order asked; `of`, `seed` and `stratifiedBy` say how they
 * were drawn, so anyone with the same source can draw (and check) the same ones.
 */
export interface QuestionSubset {
  /** How many questions the source had. */
  of: number;
  seed: number;
  /** Drawn in proportion from each category, when the source has categories. */
  stratifiedBy?: 'category';
  ids: string[];
}

/**
 * How a field was obtained from a raw reply, recorded with every sample. A multiple-choice reply
 * (src/multiple-choice/) gives its option letter and its stated probability.
 */
export type AnswerExtraction = 'answer-line' | 'fallback-tail' | 'empty' | 'option-letter';
export type ConfidenceExtraction = 'confidence-line' | 'missing' | 'stated-probability';

/** One sampled reply, with what was extracted from it. */
export interface Sample {
  raw: string;
  answer: string;
  answerMethod: AnswerExtraction;
  /** Stated confidence in [0, 1]; null when none could be parsed (scored as 1.0). */
  confidence: number | null;
  confidenceMethod: ConfidenceExtraction;
  finishReason: string | null;
  /** Token log-probabilities, kept where a signal is read from them (a multiple-choice reply's logprob confidence). */
  logprobs?: TokenLogprob[];
  /** The reply's sequence log-probability (sum over its tokens), where the provider returned token logprobs. */
  sequenceLogprob?: number;
}

/** The authors' row after sampling (before clustering). */
export interface SampledRow {
  id: string;
  question: string;
  gold_answer: string;
  gold_answer_aliases?: string[];
  model: string;
  n_samples: number;
  /**
   * Set on an adaptively sampled question (pipeline/adaptive-slots.ts): its first
   * selection_samples samples are the selection block, the rest the held-out block, and its Sem2
   * is the held-out share of the block's modal class (core/adaptive-sem2.ts). Absent: fixed n.
   */
  selection_samples?: number;
  results: string[];
  answer_extracted: string[];
  confidence_verbalized: (number | null)[];
  /**
   * p(True) of the proposed answer (pipeline/p-true.ts), asked only where chosen: a probability,
   * or null when the replies held no verdict. Absent: not asked.
   */
  p_true?: number | null;
  /** How p_true was read: the verdict token's logprobs, or the share of sampled "True" verdicts. */
  p_true_method?: PTrueMethod;
  /**
   * Each sample's sequence log-probability (the sum of its tokens' log-probabilities), present
   * only where logprobs were asked and every sample has one (the weighted semantic entropy).
   */
  sequence_logprobs?: number[];
}

export type PTrueMethod = 'logprobs' | 'sampled';

/**
 * The pairwise similarity of a question's answers as the clustering measured it, kept in its
 * clustered row so the graph signals (EigV, Deg, Ecc) can use it at scoring, where no model runs.
 * Compact: one value per pair of groups of identical (normalized) answers, not per pair of samples.
 */
/** Where a clustering's answer similarity comes from (AnswerSimilarity's `source`). */
export const ANSWER_SIMILARITY_SOURCES = ['embedding-cosine', 'entailment-probability'] as const;
export type AnswerSimilaritySource = (typeof ANSWER_SIMILARITY_SOURCES)[number];

export interface AnswerSimilarity {
  /**
   * What the values are: the embedding model's cosines between the answers, clipped to [0, 1]; or
   * the NLI model's entailment probabilities, the mean of the two directions (entailment clustering
   * with its similarity setting on; Lin, Trivedi & Sun 2023).
   */
  source: AnswerSimilaritySource;
  /** Each sample's group (0 … g−1), in sampling order. */
  groups: number[];
  /** The g×g similarity of the groups, row-major, rounded to 4 decimals (diagonal 1). */
  matrix: number[];
}

/** The authors' clustered row. */
export interface ClusteredRow extends SampledRow {
  /** Where the clustering measured one (embedding clustering; entailment clustering when asked): its answers' pairwise similarity. */
  answer_similarity?: AnswerSimilarity;
  n_clusters: number;
  cluster_labels: string[];
  cluster_assignments: number[];
  cluster_sizes: number[];
  modal_cluster: number;
  modal_cluster_label: string;
}

export type Grade = 'CORRECT' | 'INCORRECT' | 'NOT_ATTEMPTED';

/** A grade's Y: 1 only for CORRECT; null (grading failed) stays null. */
export function gradeToY(grade: Grade): 0 | 1;
export function gradeToY(grade: Grade | null): 0 | 1 | null;
export function gradeToY(grade: Grade | null): 0 | 1 | null {
  return grade === null ? null : grade === 'CORRECT' ? 1 : 0;
}

/** The authors' graded row. Y is null when grading failed. */
export interface GradedRow {
  id: string;
  model: string;
  question: string;
  gold_answer: string;
  modal_cluster_label: string;
  grade: Grade | null;
  Y: 0 | 1 | null;
}

/**
 * The project's rule for repeated ids (SEMECE.md): the first row with an id wins; later rows with
 * it are never used. `onRepeat` hears of each later row with the first one, e.g. to report it.
 */
export function firstRowPerId<T extends { id: string }>(rows: Iterable<T>): T[];
export function firstRowPerId<T>(rows: Iterable<T>, idOf: (row: T) => string, onRepeat?: (row: T, first: T) => void): T[];
export function firstRowPerId<T>(
  rows: Iterable<T>,
  idOf: (row: T) => string = (row) => (row as { id: string }).id,
  onRepeat?: (row: T, first: T) => void,
): T[] {
  const first = new Map<string, T>();
  const out: T[] = [];
  for (const row of rows) {
    const id = idOf(row);
    const earlier = first.get(id);
    if (earlier !== undefined) {
      onRepeat?.(row, earlier);
      continue;
    }
    first.set(id, row);
    out.push(row);
  }
  return out;
}

/** A semantic class as a clusterer lists it. */
export interface SemanticClass {
  label: string;
  members: number[];
}

/**
 * A failure that crosses a worker boundary or lands in a report: a typed value, never a thrown
 * string. `where` names the place (file and line, question id, request).
 */
export interface StageError {
  kind: string;
  message: string;
  where?: string;
  status?: number;
  retryable?: boolean;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: StageError };
