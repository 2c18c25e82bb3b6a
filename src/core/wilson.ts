/**
 * The Wilson score interval of a binomial proportion: `successes` out of `n`, at the normal
 * quantile `z` (1.96 for 95 %). Unlike the normal (Wald) interval it stays inside [0, 1] and
 * keeps a width at 0 and n successes, so a small bin with every answer right still shows how
 * far its accuracy could move by chance.
 */

/** [low, high] of the interval; [NaN, NaN] when n is 0 (no proportion to bound). */
export function wilsonInterval(successes: number, n: number, z = 1.96): [number, number] {
  if (!(n > 0)) return [NaN, NaN];
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
