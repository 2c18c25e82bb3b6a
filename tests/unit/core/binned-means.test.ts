import { describe, expect, test } from 'vitest';
import { binnedMeans } from '../../../src/core/binned-means';

describe('binnedMeans', () => {
  test('mean x and mean of each series per equal-width bin, ascending', () => {
    const x = [0.72, 0.12, 0.71, 0.14, 0.13];
    const a = [1, 2, 3, 4, 6];
    const b = [0, 10, 0, 20, 30];
    const bins = binnedMeans(x, [a, b], 0.05);
    expect(bins.map((m) => m.count)).toEqual([3, 2]);
    expect(bins[0].x).toBeCloseTo(0.13, 15);
    expect(bins[0].means).toEqual([4, 20]);
    expect(bins[1].x).toBeCloseTo(0.715, 15);
    expect(bins[1].means).toEqual([2, 0]);
  });
  test('bins with fewer than minCount rows are left out; x = 1 joins the last bin', () => {
    const bins = binnedMeans([0.97, 1, 0.5], [[1, 3, 9]], 0.05, 2);
    expect(bins).toHaveLength(1);
    expect(bins[0].means).toEqual([2]);
    expect(bins[0].x).toBeCloseTo(0.985, 15);
  });
});
