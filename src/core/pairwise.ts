/**
 * numpy's pairwise summation (`np.add.reduce` on a contiguous float64 array), reproduced
 * exactly so that means match the authors' numbers to the last bit.
 *
 * n < 8: a plain left-to-right sum starting from 0. 8 ≤ n ≤ 128: eight running sums over
 * blocks of 8, combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the leftovers in order.
 * n > 128: split at n2 = n/2 − (n/2 mod 8) and recurse on both halves.
 */
export function pairwiseSum(values: ArrayLike<number>, start = 0, end = values.length): number {
  const n = end - start;
  if (n < 8) {
    let sum = 0;
    for (let i = start; i < end; i++) sum += values[i];
    return sum;
  }
  if (n <= 128) {
    let r0 = values[start], r1 = values[start + 1], r2 = values[start + 2], r3 = values[start + 3];
    let r4 = values[start + 4], r5 = values[start + 5], r6 = values[start + 6], r7 = values[start + 7];
    const blockEnd = start + (n - (n % 8));
    let i = start + 8;
    for (; i < blockEnd; i += 8) {
      r0 += values[i]; r1 += values[i + 1]; r2 += values[i + 2]; r3 += values[i + 3];
      r4 += values[i + 4]; r5 += values[i + 5]; r6 += values[i + 6]; r7 += values[i + 7];
    }
    let sum = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
    for (; i < end; i++) sum += values[i];
    return sum;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(values, start, start + n2) + pairwiseSum(values, start + n2, end);
}

/** `np.mean`: the pairwise sum divided by n. NaN for an empty input (numpy warns and gives nan). */
export function pairwiseMean(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  return pairwiseSum(values) / values.length;
}
