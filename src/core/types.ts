/**
 * Shapes of what the statistics core computes. Plain data only: these travel through
 * workers, into report documents and into the CLI's JSON, so no class instances, no Maps.
 *
 * Convention for empty or undefined input across core/: functions never throw on empty data;
 * a statistic that is undefined for its input is NaN (written as null in JSON).
 */

/** One question's semantic classes and stated confidences, as the estimators need them. */
export interface QuestionSamples {
  /** Class index of each sample, in sampling order; classes numbered in the clusterer's listed order. */
  assignments: ArrayLike<number>;
  /** Number of listed classes K (a listed class may be empty). */
  nClasses: number;
  /** Stated confidence per sample in [0, 1], or null where none could be parsed. */
  verbalized?: ArrayLike<number | null>;
}

export type Regime = 'jensen' | 'low-margin' | 'large-margin';

/** Every per-question number of the spec. */
export interface QuestionEstimates {
  n: number;
  sizes: number[];
  modal: number;
  sem1: number;
  sem2: number;
  verbalized: number;
  margin: number;
  stdMargin: number;
  entropy: number;
  nonEmptyClasses: number;
}

/** One bin of a reliability diagram. */
export interface ReliabilityBin {
  lo: number;
  hi: number;
  count: number;
  /** NaN when the bin is empty. */
  meanConfidence: number;
  accuracy: number;
}

/**
 * Brier score = reliability − resolution + uncertainty + withinBinVariance − withinBinCovariance,
 * on the paper's 10 equal-width bins (brier.ts). Reports made before the two within-bin terms were
 * stored lack them, and their reliability and resolution grouped the distinct confidence values.
 */
export interface BrierDecomposition {
  score: number;
  reliability: number;
  resolution: number;
  uncertainty: number;
  withinBinVariance?: number;
  withinBinCovariance?: number;
}

/** Calibration of one confidence signal against correctness. */
export interface SignalMetrics {
  /** The paper's ECE: 10 equal-width bins with edges i*0.1. */
  ece: number;
  eceEqualMass: number;
  mce: number;
  smoothEce: number;
  /**
   * The bandwidth σ at which `smoothEce` was evaluated (the self-consistent one, smooth-ece.ts);
   * NaN when smooth ECE was not computed. Absent in reports made before it was stored.
   */
  smoothEceBandwidth?: number;
  brier: BrierDecomposition;
  auroc: number;
  aurc: number;
  meanConfidence: number;
  bins: ReliabilityBin[];
  binsEqualMass: ReliabilityBin[];
}

/** [point, low, high]; NaN where undefined. */
export type Interval = [number, number, number];

export interface PairedBootstrap {
  d_conf: Interval;
  d_ece: Interval;
  d_ece_lo: Interval;
  /** Rows with Δ < 1/√50 in the original data. */
  n_lo: number;
  B: number;
  seed: number;
}
