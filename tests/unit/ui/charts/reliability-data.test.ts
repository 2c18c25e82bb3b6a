import { describe, expect, test } from 'vitest';
import { describeMark, histogramBars, reliabilityMarks, slotExtent } from '../../../../src/ui/charts/reliability-data';
import { wilsonInterval } from '../../../../src/core/wilson';
import type { ReliabilityBin } from '../../../../src/core/types';

function bin(i: number, count: number, correct: number, meanConfidence: number): ReliabilityBin {
  return { lo: i * 0.1, hi: (i + 1) * 0.1, count, accuracy: count ? correct / count : NaN, meanConfidence: count ? meanConfidence : NaN };
}

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
