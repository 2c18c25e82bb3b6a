import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { describeMark, histogramBars, reliabilityMarks, slotExtent, wilsonInterval } from '../../../../src/ui/charts/reliability-data';
import type { ReliabilityBin } from '../../../../src/core/types';

function bin(i: number, count: number, correct: number, meanConfidence: number): ReliabilityBin {
  return { lo: i * 0.1, hi: (i + 1) * 0.1, count, accuracy: count ? correct / count : NaN, meanConfidence: count ? meanConfidence : NaN };
}

describe('wilsonInterval', () => {
  test('matches the closed form for 8 of 10 at the exact 97.5 % normal quantile', () => {
    const [lo, hi] = wilsonInterval(8, 10, 1.9599639845400536);
    // Reference values: the Wilson formula evaluated in Python with statistics.NormalDist().inv_cdf(0.975).
    expect(lo).toBeCloseTo(0.4901624, 6);
    expect(hi).toBeCloseTo(0.9433178, 6);
  });
  test('stays inside [0, 1] at the extremes and is empty for n = 0', () => {
    expect(wilsonInterval(0, 5)[0]).toBe(0);
    expect(wilsonInterval(5, 5)[1]).toBeCloseTo(1, 12);
    expect(wilsonInterval(0, 0).every(Number.isNaN)).toBe(true);
  });
  test('always contains the observed proportion and narrows as n grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, p) => {
        const k = Math.round(p * n);
        const [lo, hi] = wilsonInterval(k, n);
        const [lo4, hi4] = wilsonInterval(4 * k, 4 * n);
        return lo <= k / n + 1e-12 && hi >= k / n - 1e-12 && hi4 - lo4 <= hi - lo + 1e-12;
      }),
    );
  });
});

describe('reliabilityMarks', () => {
  const bins = [bin(0, 0, 0, 0), bin(1, 4, 1, 0.15), bin(2, 0, 0, 0), bin(7, 10, 8, 0.74)];
  test('one mark per non-empty bin, keeping the bin index', () => {
    const marks = reliabilityMarks(bins);
    expect(marks.map((m) => m.index)).toEqual([1, 3]);
    expect(marks[1].count).toBe(10);
    expect(marks[1].gap).toBeCloseTo(0.74 - 0.8, 12);
    expect(marks[1].bandLow).toBeCloseTo(wilsonInterval(8, 10)[0], 12);
  });
  test('histogram keeps every bin, empty ones with count 0', () => {
    expect(histogramBars(bins).map((b) => b.count)).toEqual([0, 4, 0, 10]);
  });
  test('describeMark names the bin, the counts and the gap sign', () => {
    const text = describeMark(reliabilityMarks(bins)[1], 'Sem1');
    expect(text).toContain('Sem1, bin 0.70–0.80: 10 questions');
    expect(text).toContain('gap -6.0 points');
  });
});

describe('slotExtent', () => {
  test('slots tile the padded bin in order without overlap', () => {
    const a = slotExtent(0.2, 0.3, 0, 3);
    const b = slotExtent(0.2, 0.3, 1, 3);
    const c = slotExtent(0.2, 0.3, 2, 3);
    expect(a[0]).toBeCloseTo(0.205, 12);
    expect(a[1]).toBeCloseTo(b[0], 12);
    expect(b[1]).toBeCloseTo(c[0], 12);
    expect(c[1]).toBeCloseTo(0.295, 12);
  });
});
