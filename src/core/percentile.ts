/**
 * `np.percentile(a, q)` with numpy's default method ('linear', Hyndman & Fan type 7), reproduced
 * operation for operation so bootstrap bounds match the authors' to the last bit:
 * q/100 → virtual index (n−1)·q → floor → gamma = index − floor, then numpy's _lerp, which
 * computes b − (b−a)(1−γ) when γ ≥ 0.5 and a + (b−a)γ otherwise. An index at or past the end
 * takes the largest value.
 */

/** Percentile of already sorted (ascending) finite values; NaN when empty. */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const virtual = (n - 1) * (q / 100);
  if (virtual >= n - 1) return sorted[n - 1];
  if (virtual < 0) return sorted[0];
  const prev = Math.floor(virtual);
  const gamma = virtual - prev;
  const a = sorted[prev];
  const b = sorted[prev + 1];
  const diff = b - a;
  return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
}

/** Percentiles of the finite values of `values` (NaN and ±Infinity dropped first). */
export function percentiles(values: ArrayLike<number>, qs: readonly number[]): number[] {
  const finite: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) finite.push(values[i]);
  const sorted = Float64Array.from(finite).sort();
  return qs.map((q) => percentileSorted(sorted, q));
}
