/**
 * Holm's step-down adjustment of a family of p-values (Holm 1979): it controls the chance of any
 * false rejection in the family at α under any dependence between the tests, and rejects at least
 * what Bonferroni rejects. Sorted ascending p(1) ≤ … ≤ p(m), the adjusted p(k) is
 * max_{j ≤ k} min(1, (m − j + 1)·p(j)); a test is rejected at α when its adjusted p is ≤ α.
 * Non-finite p-values (a difference that could not be tested) are left out of the family and
 * stay NaN, so `m` counts only the tests made.
 */
export function holmAdjust(p: readonly number[]): number[] {
  const idx = p.map((_, i) => i).filter((i) => Number.isFinite(p[i]));
  // Stable sort: equal p-values keep their order, so the result does not depend on the sort.
  idx.sort((i, j) => p[i] - p[j] || i - j);
  const m = idx.length;
  const out = p.map(() => NaN);
  let running = 0;
  idx.forEach((i, k) => {
    running = Math.max(running, Math.min(1, (m - k) * p[i]));
    out[i] = running;
  });
  return out;
}

/** How many of the p-values form the family Holm adjusts over (the finite ones). */
export function holmFamilySize(p: readonly number[]): number {
  return p.filter((x) => Number.isFinite(x)).length;
}
