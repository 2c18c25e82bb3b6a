/**
 * Every black-box uncertainty signal of one question, from what the run already holds: the class
 * label of each of its m samples (required), an m×m similarity matrix (optional: NLI entailment
 * probabilities, or embedding cosines in [0, 1]) and the answers' text (optional).
 *
 * Signals and their direction (raw values keep the direction of the paper and LM-Polygraph):
 *   semanticEntropy    uncertainty  discrete semantic entropy, nats      (semantic-sets.ts)
 *   numSets            uncertainty  number of non-empty classes K         (semantic-sets.ts)
 *   eigV, deg, ecc     uncertainty  graph Laplacian signals               (graph-uncertainty.ts)
 *   lexicalSimilarity  confidence   mean pairwise ROUGE-L F               (lexical-similarity.ts)
 * Without a similarity matrix, eigV, deg and ecc are those of the 0/1 same-class matrix (closed
 * forms: K, 1 − Σp_c², sqrt(K − 1)). Without answers, lexicalSimilarity is NaN.
 *
 * `blackBoxConfidence` maps each to a confidence in [0, 1] where 1 means every sample agrees:
 *   semanticEntropy → exp(−H)          (the report's entropyConfidence, model/signals.ts)
 *   numSets         → 1/K
 *   eigV            → 1/EigV           (EigV ≥ 1: L always has the eigenvalue 0; = 1/K on a partition)
 *   deg             → 1 − Deg          (the mean similarity, diagonal included; Σp_c² on a partition)
 *   ecc             → 1/(1 + Ecc²)     (a monotone choice that equals 1/K on a partition)
 *   lexicalSimilarity → itself
 * Each is a decreasing function of the uncertainty, so rankings (AUROC, PRR, AUARC) are unchanged;
 * only calibration metrics depend on the choice.
 */
import { classSizeGraphUncertainty, graphUncertainty, type GraphUncertaintyOptions } from './graph-uncertainty';
import { lexicalSimilarity, type LexicalSimilarityOptions } from './lexical-similarity';
import { partitionClassSizes } from './semantic-sets';
import { semanticEntropy } from './estimators';

export const BLACK_BOX_SIGNALS = ['semanticEntropy', 'numSets', 'eigV', 'deg', 'ecc', 'lexicalSimilarity'] as const;
export type BlackBoxSignal = (typeof BLACK_BOX_SIGNALS)[number];

/** Whether a larger raw value means more confident ('confidence') or less ('uncertainty'). */
export const BLACK_BOX_DIRECTION: Record<BlackBoxSignal, 'uncertainty' | 'confidence'> = {
  semanticEntropy: 'uncertainty',
  numSets: 'uncertainty',
  eigV: 'uncertainty',
  deg: 'uncertainty',
  ecc: 'uncertainty',
  lexicalSimilarity: 'confidence',
};

export interface BlackBoxInput {
  /** Class label of each sample in sampling order (non-negative integers); m = its length. */
  labels: ArrayLike<number>;
  /** Row-major m×m similarity of the samples; omitted: the 0/1 same-class matrix. */
  similarity?: ArrayLike<number>;
  /** The samples' answers (length m); omitted: lexicalSimilarity is NaN. */
  answers?: readonly string[];
}

export type BlackBoxValues = Record<BlackBoxSignal, number> & {
  /** Which matrix eigV, deg and ecc came from. */
  graphFrom: 'similarity' | 'partition';
};

export interface BlackBoxOptions extends GraphUncertaintyOptions, LexicalSimilarityOptions {}

/** The raw value of every black-box signal of one question. */
export function blackBoxUncertainty(input: BlackBoxInput, options: BlackBoxOptions = {}): BlackBoxValues {
  const m = input.labels.length;
  if (input.similarity !== undefined && input.similarity.length !== m * m) {
    throw new RangeError(`similarity matrix has ${input.similarity.length} entries, expected ${m * m} for ${m} samples`);
  }
  if (input.answers !== undefined && input.answers.length !== m) {
    throw new RangeError(`${input.answers.length} answers for ${m} samples`);
  }
  const sizes = partitionClassSizes(input.labels);
  const graph = input.similarity !== undefined ? graphUncertainty(input.similarity, m, options) : classSizeGraphUncertainty(sizes);
  return {
    semanticEntropy: semanticEntropy(sizes),
    numSets: sizes.length,
    ...graph,
    lexicalSimilarity: input.answers !== undefined ? lexicalSimilarity(input.answers, options) : NaN,
    graphFrom: input.similarity !== undefined ? 'similarity' : 'partition',
  };
}

/** The confidence form of a raw signal value (see the file comment); NaN stays NaN. */
export function blackBoxConfidence(signal: BlackBoxSignal, value: number): number {
  if (Number.isNaN(value)) return NaN;
  switch (signal) {
    case 'semanticEntropy':
      return value >= 0 ? Math.exp(-value) : NaN;
    case 'numSets':
    case 'eigV':
      return value > 0 ? Math.min(1, 1 / value) : NaN;
    case 'deg':
      return 1 - value;
    case 'ecc':
      return 1 / (1 + value * value);
    case 'lexicalSimilarity':
      return value;
  }
}
