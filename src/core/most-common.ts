/**
 * The most common value (the mode) of a list of numbers, e.g. the sample count n that most
 * questions of a run have. Ties go to the value that reached the top count first; NaN when empty.
 */
export function mostCommon(values: Iterable<number>): number {
  const counts = new Map<number, number>();
  let best = NaN;
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}
