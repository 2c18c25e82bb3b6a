/**
 * Means of several series per bin of a driving value x in [0, 1]: the line a scatter's cloud
 * leans along (e.g. Sem1 and Sem2 against the oracle confidence c*). Bins have equal width; a bin
 * with fewer than `minCount` rows is left out, since its mean would mostly show noise.
 */

export interface BinnedMean {
  /** Mean x of the bin's rows (not the bin's centre), so the line passes through its data. */
  x: number;
  /** Mean of each series over the bin's rows, in the order the series were given. */
  means: number[];
  count: number;
}

/** Bins in ascending x; the last bin also takes x = 1. Sums run in row order. */
export function binnedMeans(x: ArrayLike<number>, series: readonly ArrayLike<number>[], width: number, minCount = 1): BinnedMean[] {
  const last = Math.round(1 / width) - 1;
  const bins = new Map<number, { x: number; sums: number[]; count: number }>();
  for (let i = 0; i < x.length; i++) {
    const b = Math.min(last, Math.floor(x[i] / width));
    let acc = bins.get(b);
    if (!acc) bins.set(b, (acc = { x: 0, sums: series.map(() => 0), count: 0 }));
    acc.x += x[i];
    for (let s = 0; s < series.length; s++) acc.sums[s] += series[s][i];
    acc.count++;
  }
  return [...bins.entries()]
    .filter(([, a]) => a.count >= minCount)
    .sort(([a], [b]) => a - b)
    .map(([, a]) => ({ x: a.x / a.count, means: a.sums.map((sum) => sum / a.count), count: a.count }));
}
