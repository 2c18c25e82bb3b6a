/**
 * How well a confidence ranks correct answers above wrong ones: AUROC and the area under the
 * risk–coverage curve (AURC). Neither looks at calibration, only at order.
 */

/** Whether any of the first n confidences is NaN (ascendingOrder takes none). */
export function hasNaN(conf: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) if (Number.isNaN(conf[i])) return true;
  return false;
}

/**
 * Row indices sorted by confidence, ascending, ties in input order (no NaN allowed): the order
 * of `sort((a, b) => conf[a] − conf[b] || a − b)`, computed as a stable counting sort over the
 * distinct values (confidences take few distinct values: Sem1 at most n + 1), so it costs
 * O(N + D log D) instead of O(N log N) comparator calls. −0 and 0 are one value, as for `−`.
 */
export function ascendingOrder(conf: ArrayLike<number>, n = conf.length): Int32Array {
  const rankOf = new Map<number, number>();
  const distinct: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = conf[i];
    if (!rankOf.has(c)) {
      rankOf.set(c, 0);
      distinct.push(c);
    }
  }
  const sorted = Float64Array.from(distinct).sort();
  const start = new Int32Array(sorted.length + 1);
  for (let k = 0; k < sorted.length; k++) rankOf.set(sorted[k], k);
  const rank = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const k = rankOf.get(conf[i])!;
    rank[i] = k;
    start[k + 1]++;
  }
  for (let k = 0; k < sorted.length; k++) start[k + 1] += start[k];
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[start[rank[i]]++] = i;
  return order;
}

function ascending(conf: ArrayLike<number>, n: number): Int32Array {
  return ascendingOrder(conf, n);
}

/**
 * AUROC of confidence for correctness (Y = 1 positive): the probability that a random correct
 * row has higher confidence than a random wrong one, ties counted half (Mann–Whitney U with
 * mid-ranks). NaN when either class is absent or a confidence is NaN. `order`: the rows'
 * ascendingOrder(conf, n) when the caller already has it (signalMetrics shares one per signal).
 */
export function auroc(conf: ArrayLike<number>, y: ArrayLike<number>, order?: Int32Array): number {
  const n = Math.min(conf.length, y.length);
  if (n === 0 || hasNaN(conf, n)) return NaN;
  let positives = 0;
  for (let i = 0; i < n; i++) if (y[i] === 1) positives++;
  const negatives = n - positives;
  if (positives === 0 || negatives === 0) return NaN;
  const rows = order ?? ascending(conf, n);
  let rankSum = 0;
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && conf[rows[end]] === conf[rows[start]]) end++;
    const midRank = (start + 1 + end) / 2;
    for (let p = start; p < end; p++) if (y[rows[p]] === 1) rankSum += midRank;
    start = end;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
