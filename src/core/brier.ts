/**
 * Brier score and its decomposition on the paper's 10 equal-width bins (Stephenson, Coelho &
 * Jolliffe 2008, "Two extra components in the Brier score decomposition"):
 *
 *   Brier = reliability − resolution + uncertainty + within-bin variance − within-bin covariance
 *
 * With N rows, bin k holding n_k rows of mean forecast f̄_k and observed frequency ō_k, and ō the
 * overall frequency:
 *   reliability = Σ n_k (f̄_k − ō_k)² / N,      resolution = Σ n_k (ō_k − ō)² / N,
 *   uncertainty = ō(1 − ō),
 *   within-bin variance   = Σ_k Σ_{i∈k} (f_i − f̄_k)² / N,
 *   within-bin covariance = 2 Σ_k Σ_{i∈k} (f_i − f̄_k)(y_i − ō_k) / N.
 * The identity is exact (expand (f_i − y_i)² around f̄_k and ō_k within each bin); in floating
 * point the five terms add up to the score within ~1e-15.
 *
 * Why one common binning rather than Murphy's (1973) groups of distinct values: a signal with many
 * distinct values (verbalized percentages, Sem2, any continuous score) put each question in a group
 * of its own, and a singleton group's resolution term is (y − ō)², so the resolution came out close
 * to the uncertainty whatever the signal's discrimination (a signal with AUROC 0.48 read about as
 * resolving as Sem1). On the same 10 bins every signal's resolution measures the same thing; what
 * the coarser grouping leaves out is in the two within-bin terms, which are small (a bin is 0.1
 * wide, so the within-bin variance is at most 0.0025). The resolution of a signal that carries no
 * information is then near 0 (its plug-in value is biased up by about (bins used − 1)·ō(1 − ō)/N).
 * The score itself is the pairwise mean of (c − y)², unchanged. The ConfidenceBench baseline
 * (always saying 25% on 4-option questions) scores 0.1875.
 */
import { equalWidthBinIndex, equalWidthEdges } from './binning';
import { pairwiseMean } from './pairwise';
import type { BrierDecomposition } from './types';

/** The bins of the decomposition: the paper's ECE bins, edges i·0.1. */
export const BRIER_BINS = 10;

export function brierScore(conf: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = Math.min(conf.length, y.length);
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) sq[i] = (conf[i] - y[i]) ** 2;
  return pairwiseMean(sq);
}

export function brierDecomposition(conf: ArrayLike<number>, y: ArrayLike<number>, bins = BRIER_BINS): BrierDecomposition {
  const n = Math.min(conf.length, y.length);
  if (n === 0) return { score: NaN, reliability: NaN, resolution: NaN, uncertainty: NaN, withinBinVariance: NaN, withinBinCovariance: NaN };
  const edges = equalWidthEdges(bins);
  const L = edges.length - 1;
  const binOf = equalWidthBinIndex(conf, edges, n);
  const count = new Float64Array(L);
  const sumF = new Float64Array(L);
  const hits = new Float64Array(L);
  let allHits = 0;
  for (let i = 0; i < n; i++) {
    count[binOf[i]]++;
    sumF[binOf[i]] += conf[i];
    hits[binOf[i]] += y[i];
    allHits += y[i];
  }
  const base = allHits / n;
  let reliability = 0, resolution = 0;
  for (let k = 0; k < L; k++) {
    if (count[k] === 0) continue;
    const f = sumF[k] / count[k];
    const o = hits[k] / count[k];
    reliability += count[k] * (f - o) ** 2;
    resolution += count[k] * (o - base) ** 2;
  }
  let variance = 0, covariance = 0;
  for (let i = 0; i < n; i++) {
    const k = binOf[i];
    const df = conf[i] - sumF[k] / count[k];
    variance += df * df;
    covariance += df * (y[i] - hits[k] / count[k]);
  }
  return {
    score: brierScore(conf, y),
    reliability: reliability / n,
    resolution: resolution / n,
    uncertainty: base * (1 - base),
    withinBinVariance: variance / n,
    withinBinCovariance: (2 * covariance) / n,
  };
}
