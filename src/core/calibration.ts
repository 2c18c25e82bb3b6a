/**
 * Calibration of one confidence signal against correctness: every metric of SignalMetrics in
 * one call. The paper's ECE is `ece` (equal-width, edges i*0.1); the rest are companions, each
 * documented in its own module (ece.ts, equal-mass.ts, brier.ts, ranking.ts, smooth-ece.ts).
 *
 * Convention (all of core/): empty input gives NaN, never a throw.
 */
import { brierDecomposition } from './brier';
import { eceFromBins, mceFromBins, reliabilityBins } from './ece';
import { equalMassBins } from './equal-mass';
import { pairwiseMean } from './pairwise';
import { ascendingOrder, auroc, hasNaN } from './ranking';
import { aurc } from './risk-coverage';
import { smoothEceWithBandwidth } from './smooth-ece';
import type { SignalMetrics } from './types';

export { eceEqualWidth, mce, MCE_MIN_COUNT, reliabilityBins, eceFromBins, mceFromBins, BinnedEceWorkspace } from './ece';
export { eceEqualMass, equalMassBins } from './equal-mass';
export { brierDecomposition, brierScore } from './brier';
export { auroc } from './ranking';
export { aurc, riskCoverageCurve } from './risk-coverage';
export { smoothEce, smoothEceAt, smoothEceWithBandwidth } from './smooth-ece';
export { equalWidthEdges, equalWidthBinOf } from './binning';

/** Fraction of rows with Y = 1 (pairwise mean of Y); NaN when empty. */
export function accuracy(y: ArrayLike<number>): number {
  return pairwiseMean(y);
}

export interface SignalMetricsOptions {
  /** Bins of the paper's ECE, the MCE and the equal-mass ECE (default 10). */
  bins?: number;
  /** smECE costs a few ms per call; skip it where only the binned numbers are wanted. */
  smooth?: boolean;
}

export function signalMetrics(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  options: SignalMetricsOptions = {},
): SignalMetrics {
  const bins = options.bins ?? 10;
  const n = Math.min(conf.length, y.length);
  const c = conf.length === n ? conf : Array.prototype.slice.call(conf, 0, n) as number[];
  const yy = y.length === n ? y : Array.prototype.slice.call(y, 0, n) as number[];
  const paperBins = reliabilityBins(c, yy, bins);
  // One order by confidence for the equal-mass bins, AUROC and AURC (each would sort the rows again).
  const order = n > 0 && !hasNaN(c, n) ? ascendingOrder(c, n) : undefined;
  const massBins = equalMassBins(c, yy, bins, order);
  // The bandwidth is kept with the value: a smooth ECE means little without the σ it smoothed at.
  const smooth = options.smooth === false ? { value: NaN, sigma: NaN } : smoothEceWithBandwidth(c, yy);
  return {
    ece: eceFromBins(paperBins),
    eceEqualMass: eceFromBins(massBins),
    mce: mceFromBins(paperBins),
    smoothEce: smooth.value,
    smoothEceBandwidth: Number.isNaN(smooth.value) ? NaN : smooth.sigma,
    brier: brierDecomposition(c, yy),
    auroc: auroc(c, yy, order),
    aurc: aurc(c, yy, order),
    meanConfidence: pairwiseMean(c),
    bins: paperBins,
    binsEqualMass: massBins,
  };
}
