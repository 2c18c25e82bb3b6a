import { describe, expect, test } from 'vitest';
import { biasCorrectedEceIntervals } from '../../../src/core/bias-corrected-ece';
import { biasCorrectedInterval } from '../../../src/core/bootstrap';
import { eceEqualWidth } from '../../../src/core/calibration';
import { defaultRng } from '../../../src/core/rng';

/** A group of 24 questions whose confidence matches its accuracy in each half: a small binned ECE reads high. */
const conf = Array.from({ length: 24 }, (_, i) => (i < 12 ? 0.25 : 0.75));
const y = conf.map((c, i) => ((i % 12) < c * 12 ? 1 : 0));
const other = conf.map((c, i) => Math.min(1, c + (i % 3) * 0.05));

/** The same statistic the slow way: numpy's integers(0, m, m) per resample from one stream, eceEqualWidth of the gathered rows. */
function reference(c: number[], yy: number[], B: number, seed: number) {
  const rng = defaultRng(seed);
  const reps = Array.from({ length: B }, () => {
    const rows = rng.integers(0, c.length, c.length);
    return eceEqualWidth(Array.from(rows, (r) => c[r]), Array.from(rows, (r) => yy[r]));
  });
  return biasCorrectedInterval(eceEqualWidth(c, yy), reps);
}

describe('biasCorrectedEceIntervals', () => {
  test('equals the bias-corrected basic interval of the ECE over resamples of the rows, computed the slow way', () => {
    const third = other.map((c) => 1 - c / 2);
    const got = biasCorrectedEceIntervals({ sem1: conf, sem2: other, verbalized: third }, y, { B: 200, seed: 7 });
    expect(got.sem1).toEqual(reference(conf, y, 200, 7));
    expect(got.sem2).toEqual(reference(other, y, 200, 7));
    expect(got.verbalized).toEqual(reference(third, y, 200, 7));
    // A lone signal too.
    expect(biasCorrectedEceIntervals({ s: third }, y, { B: 200, seed: 7 }).s).toEqual(reference(third, y, 200, 7));
  });

  test('contains its estimate, which lies below the binned ECE that noise inflates', () => {
    expect(eceEqualWidth(conf, y)).toBe(0);
    const noisy = conf.map((c, i) => c + ((i * 7) % 5) * 0.01);
    const [est, lo, hi] = biasCorrectedEceIntervals({ s: noisy }, y, { B: 500 }).s;
    const ece = eceEqualWidth(noisy, y);
    expect(lo).toBeLessThanOrEqual(est);
    expect(est).toBeLessThanOrEqual(hi);
    expect(est).toBeLessThan(ece);
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThanOrEqual(1);
  });

  test('every signal sees the same resamples: a signal passed twice gets the same interval', () => {
    const got = biasCorrectedEceIntervals({ a: other, b: other }, y, { B: 100, seed: 3 });
    expect(got.a).toEqual(got.b);
    expect(got.a).not.toEqual(biasCorrectedEceIntervals({ a: other }, y, { B: 100, seed: 4 }).a);
  });

  test('no rows, or too few resamples, give NaN', () => {
    expect(biasCorrectedEceIntervals({ s: [] }, [], { B: 100 }).s).toEqual([NaN, NaN, NaN]);
    expect(biasCorrectedEceIntervals({ s: conf }, y, { B: 20 }).s).toEqual([NaN, NaN, NaN]);
  });
});
