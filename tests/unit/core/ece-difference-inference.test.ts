/**
 * The ECE difference's interval and test (core/ece-difference-inference.ts): built from each
 * model's headline interval exactly, at the Bonferroni levels, with a p-value that agrees with
 * the interval at 5% and is rounded up to its grid.
 */
import { describe, expect, test } from 'vitest';
import { eceInference, eceIntervalsAtLevels } from '../../../src/core/ece-inference';
import { eceDifference, eceLevelIntervals, P_GRID } from '../../../src/core/ece-difference-inference';
import { defaultRng } from '../../../src/core/rng';

/** N rows rounded to tenths; right with probability clip(c − offset). */
function rows(seed: number, N: number, offset: number) {
  const rng = defaultRng(seed);
  const conf = new Float64Array(N), y = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    conf[i] = Math.max(0.1, Math.round((0.3 + 0.7 * rng.random()) * 10) / 10);
    y[i] = rng.random() < Math.min(1, Math.max(0, conf[i] - offset)) ? 1 : 0;
  }
  return { conf, y };
}

describe('eceIntervalsAtLevels', () => {
  test('each level gives exactly what eceInference gives at that level', () => {
    const { conf, y } = rows(1, 150, 0.05);
    const levels = [0.5, 0.9, 0.95, 0.975, 0.999];
    const at = eceIntervalsAtLevels(conf, y, levels, { seed: 3 });
    levels.forEach((level, k) => expect(at[k]).toEqual(eceInference(conf, y, { level, seed: 3 }).interval));
  });

  test('no rows: NaN intervals', () => {
    expect(eceIntervalsAtLevels([], [], [0.95])).toEqual([[NaN, NaN]]);
  });
});

describe('eceDifference', () => {
  test('the interval is the Bonferroni rectangle of the two 97.5% headline intervals', () => {
    const a = rows(2, 400, 0), b = rows(3, 400, 0.2);
    const d = eceDifference(eceLevelIntervals(a.conf, a.y), eceLevelIntervals(b.conf, b.y));
    const ia = eceInference(a.conf, a.y, { level: 0.975 }).interval;
    const ib = eceInference(b.conf, b.y, { level: 0.975 }).interval;
    expect(d.interval).toEqual([ib[0] - ia[1], ib[1] - ia[0]]);
    // B is clearly worse calibrated: the interval is above 0 and the test rejects.
    expect(d.interval[0]).toBeGreaterThan(0);
    expect(d.p).toBeLessThanOrEqual(0.05);
  });

  test('the same rows for both: the interval holds 0 and p is 1', () => {
    const a = rows(4, 120, 0.1);
    const li = eceLevelIntervals(a.conf, a.y);
    const d = eceDifference(li, li);
    expect(d.interval[0]).toBeLessThanOrEqual(0);
    expect(d.interval[1]).toBeGreaterThanOrEqual(0);
    expect(d.p).toBe(1);
  });

  test('p ≤ 0.05 exactly when the 95% interval excludes 0, and p is on the grid with the intervals apart from it on', () => {
    let rejections = 0;
    for (let s = 0; s < 12; s++) {
      const a = rows(100 + s, 150, 0), b = rows(200 + s, 150, 0.02 * s);
      const la = eceLevelIntervals(a.conf, a.y), lb = eceLevelIntervals(b.conf, b.y);
      const d = eceDifference(la, lb);
      const excludes = d.interval[0] > 0 || d.interval[1] < 0;
      expect(d.p <= 0.05).toBe(excludes);
      expect(P_GRID).toContain(d.p);
      if (excludes) rejections++;
      const from = P_GRID.indexOf(d.p);
      for (let k = from; k < P_GRID.length && d.p < 1; k++) {
        const [ia, ib] = [la.grid[k], lb.grid[k]];
        expect(ib[0] > ia[1] || ib[1] < ia[0]).toBe(true);
      }
    }
    // The offsets run from 0 to 0.22: some pairs differ clearly, some not at all.
    expect(rejections).toBeGreaterThan(0);
    expect(rejections).toBeLessThan(12);
  });

  test('a NaN interval on either side gives NaN', () => {
    const a = rows(5, 100, 0);
    const empty = eceLevelIntervals([], []);
    expect(eceDifference(eceLevelIntervals(a.conf, a.y), empty)).toEqual({ interval: [NaN, NaN], p: NaN });
  });
});
