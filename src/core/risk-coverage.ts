/**
 * The risk–coverage curve (Geifman, Uziel & El-Yaniv 2019) and its area, the report's AURC:
 * answer only the k most confident rows; the selective risk at coverage k/N is their error rate,
 * and AURC is the mean of that risk over k = 1..N. Lower is better; its floor depends on
 * accuracy. One function computes both, so the curve the app draws is the very sequence of
 * risks that AURC averages.
 *
 * Ties: rows of equal confidence have no order, so the risk is averaged over every order of
 * each tie group. That expectation is exact and cheap: inside a group of m rows with e errors,
 * taking j of them counts j·e/m expected errors. The curve is therefore straight across a tie
 * group and exact (a count of errors over k) at each group's end, which is where a confidence
 * threshold `conf ≥ t` can stop. The result does not depend on input order.
 */
import { ascendingOrder } from './ranking';

export interface RiskCoverageCurve {
  /** Rows on the curve, N. */
  n: number;
  /** Coverage k/N of point k − 1, k = 1..N. */
  coverage: Float64Array;
  /** Expected error rate of the k most confident rows (ties averaged over every order). */
  risk: Float64Array;
  /** Confidence of the k-th most confident row: the threshold `conf ≥ t` answers at least k rows. */
  threshold: Float64Array;
  /** Whether point k − 1 ends a tie group (its risk is then a plain count over k). */
  groupEnd: Uint8Array;
  /** Mean of `risk`: the area under the curve (AURC); NaN when empty. */
  area: number;
}

/**
 * The curve over the first min(conf.length, y.length) rows; empty (area NaN) for no rows or a NaN
 * confidence. `order`: the rows' ascendingOrder(conf, n) when the caller already has it (not modified).
 */
export function riskCoverageCurve(conf: ArrayLike<number>, y: ArrayLike<number>, given?: Int32Array): RiskCoverageCurve {
  let n = Math.min(conf.length, y.length);
  for (let i = 0; i < n; i++) if (Number.isNaN(conf[i])) n = 0;
  const coverage = new Float64Array(n);
  const risk = new Float64Array(n);
  const threshold = new Float64Array(n);
  const groupEnd = new Uint8Array(n);
  if (n === 0) return { n, coverage, risk, threshold, groupEnd, area: NaN };
  const order = (given ? given.slice(0, n) : ascendingOrder(conf, n)).reverse();
  let area = 0;
  let errorsBefore = 0;
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && conf[order[end]] === conf[order[start]]) end++;
    const m = end - start;
    let e = 0;
    for (let p = start; p < end; p++) e += 1 - y[order[p]];
    for (let j = 1; j <= m; j++) {
      const r = (errorsBefore + (j * e) / m) / (start + j);
      const k = start + j - 1;
      risk[k] = r;
      coverage[k] = (start + j) / n;
      threshold[k] = conf[order[start]];
      area += r;
    }
    groupEnd[end - 1] = 1;
    errorsBefore += e;
    start = end;
  }
  return { n, coverage, risk, threshold, groupEnd, area: area / n };
}

/** AURC: the area under the risk–coverage curve; NaN for empty input or a NaN confidence. */
export function aurc(conf: ArrayLike<number>, y: ArrayLike<number>, order?: Int32Array): number {
  return riskCoverageCurve(conf, y, order).area;
}
