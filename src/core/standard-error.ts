/**
 * Standard errors the Classroom reports beside its means: the Monte Carlo error of a mean over
 * simulated questions, and the largest standard error a class share can have at n samples (the
 * scale its difficulty meter reads the Sem1 − Sem2 gap in).
 */
import { pairwiseMean } from './pairwise';

/** A mean with its standard error. */
export interface MeanSE {
  mean: number;
  se: number;
}

/**
 * The mean (numpy's pairwise mean) and its standard error s/√n, s the sample standard deviation
 * (n − 1 in the denominator): √(Σ(v − v̄)² / (n − 1) / n), the squares summed in order. NaN for
 * both when there are no values, NaN for the error when there is one.
 */
export function meanSE(values: readonly number[]): MeanSE {
  const n = values.length;
  if (n === 0) return { mean: NaN, se: NaN };
  const mean = pairwiseMean(values);
  if (n < 2) return { mean, se: NaN };
  let ss = 0;
  for (const v of values) ss += (v - mean) ** 2;
  return { mean, se: Math.sqrt(ss / (n - 1) / n) };
}

/** √(p(1 − p)/n) at its largest, p = ½: 0.5/√n, the standard error of a share of n samples at worst. */
export function largestShareSE(n: number): number {
  return 0.5 / Math.sqrt(n);
}
