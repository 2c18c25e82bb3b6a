import { describe, expect, test } from 'vitest';
import { gapByMargin } from '../../../src/core/gap-by-margin';
import { percentileSorted } from '../../../src/core/percentile';

const f = (xs: number[]) => Float64Array.from(xs);

describe('gapByMargin', () => {
  test('one group per distinct margin, ascending, with mean, 10th/90th percentile and count', () => {
    const groups = gapByMargin(f([0.4, 0.2, 0.4, 0.2, 0.4]), f([0.3, 0.1, 0.1, 0.3, 0.2]), 10);
    expect(groups.map((g) => g.margin)).toEqual([0.2, 0.4]);
    expect(groups.map((g) => g.count)).toEqual([2, 3]);
    expect(groups[0].meanGap).toBeCloseTo(0.2, 15);
    expect(groups[1].meanGap).toBeCloseTo(0.2, 15);
    expect(groups[1].low).toBe(percentileSorted([0.1, 0.2, 0.3], 10));
    expect(groups[1].high).toBe(percentileSorted([0.1, 0.2, 0.3], 90));
    expect(groups[0].low).toBeCloseTo(0.12, 15);
    expect(groups[0].high).toBeCloseTo(0.28, 15);
  });
  test('margins equal but for the last bits fall in one group', () => {
    expect(gapByMargin(f([0.1 + 0.2, 0.3]), f([0, 1]))).toHaveLength(1);
  });
  test('more distinct margins than maxGroups fall into equal-width bins keyed by their centre', () => {
    const margins = Array.from({ length: 100 }, (_, i) => i / 100);
    const groups = gapByMargin(f(margins), f(margins.map(() => 0)), 4);
    expect(groups.map((g) => g.margin)).toEqual([0.125, 0.375, 0.625, 0.875]);
    expect(groups.map((g) => g.count)).toEqual([25, 25, 25, 25]);
    // A margin of 1 belongs to the last bin.
    expect(gapByMargin(f([...margins, 1]), f([...margins, 1].map(() => 0)), 4).at(-1)!.count).toBe(26);
  });
  test('no questions, no groups', () => {
    expect(gapByMargin(f([]), f([]))).toEqual([]);
  });
});
