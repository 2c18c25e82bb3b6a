/**
 * The test of whether calibration differs across slices (core/slice-heterogeneity.ts) on hand
 * cases: its statistic is the between-slice sum of squares of the gaps within bins, it rejects two slices
 * miscalibrated in opposite directions that pool to a perfect calibration, and it does not reject
 * slices that are the same rows repeated.
 */
import { expect, test } from 'vitest';
import { eceEqualWidth } from '../../../src/core/calibration';
import { sliceHeterogeneity } from '../../../src/core/slice-heterogeneity';

test('the statistic is the between-slice sum of squares of the gaps within bins, per question, on a hand case', () => {
  // One bin (0.55): slice 0 right twice (gaps 0.45), slice 1 wrong twice (gaps −0.55); bin mean gap −0.05.
  // T·N = 2·(0.45 + 0.05)² + 2·(−0.55 + 0.05)² = 1, N = 4.
  const r = sliceHeterogeneity([0.55, 0.55, 0.55, 0.55], [1, 1, 0, 0], [0, 0, 1, 1], { draws: 99 });
  expect(r.statistic).toBeCloseTo(0.25, 12);
  // Of the 6 ways to split the four rows 2 + 2, two are as extreme (this one and its mirror).
  expect(r.p).toBeGreaterThan(0.2);
  expect(r.p).toBeLessThan(0.5);
  // Slices alone in their bins: nothing to compare within a bin, T = 0 and every shuffle ties (p = 1).
  const apart = sliceHeterogeneity([0.75, 0.75, 0.75, 0.75, 0.25, 0.25], [1, 1, 0, 0, 1, 1], [0, 0, 0, 0, 1, 1], { draws: 9 });
  expect(apart.statistic).toBe(0);
  expect(apart.p).toBe(1);
});

test('opposite miscalibration that pools to perfect calibration is detected; the same rows twice are not', () => {
  // In every bin, slice 0 is always right and slice 1 always wrong: pooled accuracy 0.5 at 0.5.
  const conf: number[] = [];
  const y: number[] = [];
  const slice: number[] = [];
  for (let i = 0; i < 200; i++) {
    conf.push(0.55);
    y.push(i % 2 === 0 ? 1 : 0);
    slice.push(i % 2 === 0 ? 0 : 1);
  }
  expect(eceEqualWidth(conf, y, 10)).toBeCloseTo(0.05, 12);
  const split = sliceHeterogeneity(conf, y, slice, { draws: 199, seed: 3 });
  expect(split.p).toBe(1 / 200);
  // Slices that hold alternate copies of the same rows: nothing distinguishes them.
  const same = sliceHeterogeneity([...conf, ...conf], [...y, ...y], [...conf.map(() => 0), ...conf.map(() => 1)], { draws: 199, seed: 3 });
  expect(same.p).toBeGreaterThan(0.2);
});

test('one slice, or a non-finite confidence: no test (NaN)', () => {
  expect(sliceHeterogeneity([0.5, 0.6], [1, 0], [0, 0]).p).toBeNaN();
  expect(sliceHeterogeneity([0.5, NaN], [1, 0], [0, 1]).p).toBeNaN();
});

test('seeded: the same seed gives the same p', () => {
  const conf = Array.from({ length: 120 }, (_, i) => (i % 10) / 10 + 0.05);
  const y = conf.map((_, i) => (i * 7) % 3 === 0 ? 1 : 0);
  const slice = conf.map((_, i) => i % 3);
  expect(sliceHeterogeneity(conf, y, slice, { seed: 5, draws: 99 })).toEqual(sliceHeterogeneity(conf, y, slice, { seed: 5, draws: 99 }));
});
