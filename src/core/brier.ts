/**
 * Brier score and its Murphy (1973) decomposition, Brier = reliability − resolution + uncertainty.
 *
 * The decomposition is exact only when every row of a group shares one forecast value, so the
 * groups here are the distinct confidence values (Sem1 values are a handful of fractions k/n,
 * verbalized ones a handful of percentages). With N rows, groups k of size n_k, forecast f_k,
 * observed frequency o_k and overall frequency ō:
 *   reliability = Σ n_k (f_k − o_k)² / N,  resolution = Σ n_k (o_k − ō)² / N,  uncertainty = ō(1 − ō).
 * The score itself is the pairwise mean of (c − y)²; the identity then holds up to rounding (~1e-15).
 * The ConfidenceBench baseline (always saying 25% on 4-option questions) scores 0.1875.
 */
import { pairwiseMean } from './pairwise';
import type { BrierDecomposition } from './types';

export function brierScore(conf: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = Math.min(conf.length, y.length);
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) sq[i] = (conf[i] - y[i]) ** 2;
  return pairwiseMean(sq);
}

export function brierDecomposition(conf: ArrayLike<number>, y: ArrayLike<number>): BrierDecomposition {
  const n = Math.min(conf.length, y.length);
  if (n === 0) return { score: NaN, reliability: NaN, resolution: NaN, uncertainty: NaN };
  const groups = new Map<number, { count: number; hits: number }>();
  let hits = 0;
  for (let i = 0; i < n; i++) {
    // Map keys use SameValueZero, so -0 and 0 share a group and NaN forms one group.
    const g = groups.get(conf[i]) ?? { count: 0, hits: 0 };
    g.count++;
    g.hits += y[i];
    hits += y[i];
    groups.set(conf[i], g);
  }
  const base = hits / n;
  let reliability = 0, resolution = 0;
  for (const [f, g] of groups) {
    const o = g.hits / g.count;
    reliability += g.count * (f - o) ** 2;
    resolution += g.count * (o - base) ** 2;
  }
  return {
    score: brierScore(conf, y),
    reliability: reliability / n,
    resolution: resolution / n,
    uncertainty: base * (1 - base),
  };
}
