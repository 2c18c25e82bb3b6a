/**
 * The risk–coverage curve (Geifman, Uziel & El-Yaniv 2019) whose mean is the report's AURC
 * (ranking.ts `aurc`): answer only the k most confident rows; the selective risk at coverage
 * k/N is their error rate. Kept as its own function, rather than drawn from a re-sort in the
 * view, so the curve the app draws is the very sequence of risks that `aurc` averages.
 *
 * Ties are handled exactly as `aurc` handles them: rows of equal confidence have no order, so
 * inside a tie group of m rows with e errors, taking j of them counts j·e/m expected errors.
 * The curve is therefore straight across a tie group and exact (a count of errors over k) at
 * each group's end, which is where a confidence threshold `conf ≥ t` can stop. Every risk is
 * computed with the same operations in the same order as in `aurc`, and `area` sums them in
 * the same order, so `area === aurc(conf, y)` bit for bit (tests/unit/core/risk-coverage.test.ts).
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
  /** Mean of `risk`: the area under the curve, equal to `aurc(conf, y)`; NaN when empty. */
  area: number;
}

/** The curve over the first min(conf.length, y.length) rows; empty (area NaN) for no rows or a NaN confidence, as `aurc`. */
export function riskCoverageCurve(conf: ArrayLike<number>, y: ArrayLike<number>): RiskCoverageCurve {
  let n = Math.min(conf.length, y.length);
  for (let i = 0; i < n; i++) if (Number.isNaN(conf[i])) n = 0;
  const coverage = new Float64Array(n);
  const risk = new Float64Array(n);
  const threshold = new Float64Array(n);
  const groupEnd = new Uint8Array(n);
  if (n === 0) return { n, coverage, risk, threshold, groupEnd, area: NaN };
  const order = ascendingOrder(conf, n).reverse();
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
