/**
 * The test of whether calibration differs across slices (core/slice-heterogeneity.ts) on hand
 * cases: its statistic is the question-weighted mean of the per-slice ECEs, it rejects two slices
 * miscalibrated in opposite directions that pool to a perfect calibration, and it does not reject
 * slices that are the same rows repeated.
 */
import { expect, test } from 'vitest';
import { eceEqualWidth } from '../../../src/core/calibration';
import { sliceHeterogeneity } from '../../../src/core/slice-heterogeneity';

test('the statistic is Σ (n_s/N)·ECE_s, on a hand case', () => {
  // Slice 0: confidence 0.75, 2 of 4 right (gap 0.25); slice 1: confidence 0.25, 2 of 2 right (gap 0.75).
  const conf = [0.75, 0.75, 0.75, 0.75, 0.25, 0.25];
  const y = [1, 1, 0, 0, 1, 1];
  const slice = [0, 0, 0, 0, 1, 1];
  const r = sliceHeterogeneity(conf, y, slice, { draws: 9 });
  const e0 = eceEqualWidth(conf.slice(0, 4), y.slice(0, 4), 10);
  const e1 = eceEqualWidth(conf.slice(4), y.slice(4), 10);
  expect(e0).toBeCloseTo(0.25, 12);
  expect(e1).toBeCloseTo(0.75, 12);
  expect(r.statistic).toBeCloseTo((4 * e0 + 2 * e1) / 6, 12);
  // Each slice is alone in its bin: no shuffle within a bin changes anything, so p = 1.
  expect(r.p).toBe(1);
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
