import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { binomial, countQuantile, poissonBinomial } from '../../../src/core/bin-sum';
import { eceEqualWidth } from '../../../src/core/ece';
import { defaultRng } from '../../../src/core/rng';
import {
  consistencyBands, ECE_INFERENCE_METHOD, eceHypotheses, eceInference, eceInferenceBySignal,
} from '../../../src/core/ece-inference';

const vectors = JSON.parse(readFileSync(new URL('../../fixtures/test-vectors.json', import.meta.url), 'utf8'));

/** Rows at a few confidences where exactly round(c·m) of each group of m are correct: calibrated to the bit. */
function exactlyCalibratedSet(m: number): { conf: number[]; y: number[] } {
  const conf: number[] = [];
  const y: number[] = [];
  for (const c of [0.15, 0.35, 0.55, 0.75, 0.95]) {
    for (let i = 0; i < m; i++) {
      conf.push(c);
      y.push(i < Math.round(c * m) ? 1 : 0);
    }
  }
  return { conf, y };
}

/** n rows with c uniform on [0.2, 1) and Y ~ Bernoulli(g(c)), from a seeded stream. */
function simulated(n: number, g: (c: number) => number, seed = 5): { conf: number[]; y: number[] } {
  const rng = defaultRng(seed);
  const conf = Array.from({ length: n }, () => 0.2 + 0.8 * rng.random());
  return { conf, y: conf.map((c) => (rng.random() < g(c) ? 1 : 0)) };
}

describe('eceInference: the plug-in ECE', () => {
  test("is core's paper ECE bit for bit on the spec's vectors", () => {
    const { conf, y, ece10 } = vectors.ece_case;
    expect(eceInference(conf, y, { draws: 50 }).ece).toBe(ece10);
    const rows: number[][] = vectors.bootstrap_case.rows;
    for (const k of [1, 2]) {
      const c = rows.map((r) => r[k]);
      const yy = rows.map((r) => r[3]);
      expect(eceInference(c, yy, { draws: 50 }).ece).toBe(eceEqualWidth(c, yy));
    }
  });

  test('no rows: NaN everywhere, no throw; a NaN confidence: NaN ECE as in ece.ts, NaN interval and p', () => {
    const empty = eceInference([], []);
    expect(empty.ece).toBeNaN();
    expect(empty.interval).toEqual([NaN, NaN]);
    expect(empty.p).toBeNaN();
    expect(empty.method).toBe(ECE_INFERENCE_METHOD);
    const withNaN = eceInference([0.3, NaN, 0.9], [0, 1, 1]);
    expect(withNaN.ece).toBeNaN();
    expect(withNaN.interval).toEqual([NaN, NaN]);
    expect(withNaN.p).toBeNaN();
    const withInf = eceInference([0.3, Infinity], [0, 1]);
    expect(withInf.ece).toBe(eceEqualWidth([0.3, Infinity], [0, 1]));
    expect(withInf.p).toBeNaN();
  });
});

describe('eceInference: the test of perfect calibration', () => {
  test('p = (1 + #{simulated ≥ observed}) / (1 + draws) agrees with the exact p-value by enumeration of every outcome', () => {
    // Six rows in three bins: 64 outcomes, each with its probability under H0 (Y_i ~ Bernoulli(c_i)).
    const conf = [0.12, 0.18, 0.41, 0.47, 0.83, 0.88];
    const y = [1, 0, 1, 1, 0, 0];
    const observed = eceEqualWidth(conf, y);
    let exact = 0;
    for (let mask = 0; mask < 64; mask++) {
      const yy = conf.map((_, i) => (mask >> i) & 1);
      const prob = conf.reduce((p, c, i) => p * (yy[i] ? c : 1 - c), 1);
      if (eceEqualWidth(conf, yy) >= observed - 1e-12) exact += prob;
    }
    const draws = 20000;
    const { p } = eceInference(conf, y, { draws });
    // The Monte Carlo p-value's own error, a few standard errors (deterministic with the seed).
    expect(Math.abs(p - exact)).toBeLessThan(4 * Math.sqrt((exact * (1 - exact)) / draws) + 1 / draws);
    // A whole number of draws over draws + 1.
    expect(Math.abs(p * (draws + 1) - Math.round(p * (draws + 1)))).toBeLessThan(1e-6);
  });

  test('a grossly overconfident set gets the smallest p-value the draws allow', () => {
    const conf = Array.from({ length: 400 }, () => 0.95);
    const y = conf.map((_, i) => (i % 2 ? 1 : 0));
    expect(eceInference(conf, y, { draws: 999 }).p).toBe(1 / 1000);
  });
});

describe('eceInference: the interval for the population ECE', () => {
  test('contains 0 for a calibrated large set and excludes it for a grossly miscalibrated one', () => {
    const { conf, y } = simulated(3000, (c) => c);
    const cal = eceInference(conf, y);
    expect(cal.interval[0]).toBe(0);
    expect(cal.interval[1]).toBeGreaterThan(0);
    expect(cal.interval[1]).toBeLessThan(0.05);
    expect(cal.p).toBeGreaterThan(0.05);

    const over = simulated(3000, (c) => c * c);
    const bad = eceInference(over.conf, over.y);
    // The population ECE of Y ~ Bernoulli(c²), c uniform on [0.2, 1): E[c(1 − c)] = 0.18667.
    expect(bad.interval[0]).toBeGreaterThan(0.15);
    expect(bad.interval[0]).toBeLessThan(0.18667);
    expect(bad.interval[1]).toBeGreaterThan(0.18667);
    expect(bad.interval[1]).toBeLessThan(0.22);
    expect(bad.p).toBe(1 / 2001);
  });

  test('data closer to perfect calibration than chance allows: [0, the upper end a typical calibrated set gets]', () => {
    // Every bin's accuracy equals its confidence exactly; a calibrated model's plug-in ECE would
    // nearly never be this small, so plain inversion keeps no hypothesis and would say [0, 0].
    const { conf, y } = exactlyCalibratedSet(400);
    const r = eceInference(conf, y);
    expect(r.ece).toBeLessThan(1e-12);
    expect(r.p).toBe(1);
    expect(r.interval[0]).toBe(0);
    expect(r.interval[1]).toBeGreaterThan(0.01);
    // A calibrated data set of the same design, drawn at random, gets an upper end of that size.
    const rng = defaultRng(3);
    const typical = eceInference(conf, conf.map((c) => (rng.random() < c ? 1 : 0)));
    expect(typical.interval[0]).toBe(0);
    expect(r.interval[1]).toBeLessThan(typical.interval[1]);
    expect(r.interval[1]).toBeGreaterThan(typical.interval[1] / 3);
  });

  test('with no gap in any bin the family still reaches above 0, on the side each bin has room', () => {
    // Confidence 0 and always wrong (or 1 and always right): accuracy can only move toward 1/2.
    for (const [c, yy] of [[0, 0], [1, 1]]) {
      const r = eceInference(Array(50).fill(c), Array(50).fill(yy));
      expect(r.ece).toBe(0);
      expect(r.interval[0]).toBe(0);
      expect(r.interval[1]).toBeGreaterThan(0.02);
      expect(r.interval[1]).toBeLessThan(0.2);
    }
  });

  test('lies in [0, 1], and a higher level gives a wider interval around the narrower ones', () => {
    const conf = Array.from({ length: 120 }, (_, i) => 0.3 + 0.6 * ((i * 37) % 120) / 120);
    const y = conf.map((c, i) => (((i * 53) % 100) / 100 < c - 0.1 ? 1 : 0));
    const at = (level: number) => eceInference(conf, y, { level }).interval;
    const [a, b, c] = [at(0.8), at(0.95), at(0.99)];
    expect(a[0]).toBeGreaterThanOrEqual(0);
    expect(c[1]).toBeLessThanOrEqual(1);
    expect(b[0]).toBeLessThanOrEqual(a[0]);
    expect(b[1]).toBeGreaterThanOrEqual(a[1]);
    expect(c[0]).toBeLessThanOrEqual(b[0]);
    expect(c[1]).toBeGreaterThanOrEqual(b[1]);
  });

  test('acceptance is monotone in t: rejected as too small, then kept, then rejected as too large', () => {
    const { conf, y } = simulated(300, (c) => c);
    const over = conf.map((c) => Math.min(1, c + 0.1));
    // t from 0 up to 10⁴ (the family's direction is the shrunk gaps, small for a calibrated set).
    const ts = [0, ...Array.from({ length: 240 }, (_, k) => 10 ** (-2 + k / 40))];
    for (const c of [conf, over]) {
      const h = eceHypotheses(c, y, ts);
      const order = h.map((x) => ({ 'too-small-t': 0, keep: 1, 'too-large-t': 2 })[x.verdict]);
      for (let k = 1; k < order.length; k++) expect(order[k]).toBeGreaterThanOrEqual(order[k - 1]);
      expect(order).toContain(1);
      expect(order).toContain(2);
      // θ(t), the hypotheses' true ECE, never falls as t grows.
      for (let k = 1; k < h.length; k++) expect(h[k].theta).toBeGreaterThanOrEqual(h[k - 1].theta);
      // The interval spans the kept hypotheses, to the grid's resolution (the θ step at its edges).
      const k0 = order.indexOf(1);
      const k1 = order.lastIndexOf(1);
      const [lo, hi] = eceInference(c, y).interval;
      expect(lo).toBeLessThanOrEqual(h[k0].theta + 1e-12);
      expect(lo).toBeGreaterThanOrEqual(k0 === 0 ? 0 : h[k0 - 1].theta);
      expect(hi).toBeGreaterThanOrEqual(h[k1].theta - 1e-12);
      expect(hi).toBeLessThanOrEqual(h[k1 + 1].theta);
    }
  });

  test('is deterministic: the same input and seed give the same bits; the seed is used', () => {
    const conf = Array.from({ length: 90 }, (_, i) => ((i * 29) % 90) / 90);
    const y = conf.map((c, i) => ((i * 7) % 10 < 10 * c * c ? 1 : 0));
    expect(eceInference(conf, y)).toEqual(eceInference(Float64Array.from(conf), Float64Array.from(y)));
    expect(eceInference(conf, y, { seed: 3 })).toEqual(eceInference(conf, y, { seed: 3 }));
    expect(eceInference(conf, y, { seed: 3 }).p).not.toBe(eceInference(conf, y, { seed: 4 }).p);
  });

  test('by signal: each signal as on its own', () => {
    const { conf, y } = simulated(150, (c) => c);
    const other = conf.map((c) => c * 0.8);
    const got = eceInferenceBySignal({ a: conf, b: other }, y, { draws: 500 });
    expect(got.b).toEqual(eceInference(other, y, { draws: 500 }));
    expect(got.a).toEqual(eceInference(conf, y, { draws: 500 }));
  });
});

describe('bin sums', () => {
  test('the Poisson-binomial matches enumeration and the binomial its closed form', () => {
    const p = [0.1, 0.5, 0.7, 0.25];
    const f = new Float64Array(5);
    for (let mask = 0; mask < 16; mask++) {
      let prob = 1, k = 0;
      p.forEach((q, i) => {
        const one = (mask >> i) & 1;
        prob *= one ? q : 1 - q;
        k += one;
      });
      f[k] += prob;
    }
    const pb = poissonBinomial(p);
    f.forEach((v, k) => expect(pb.pmf[k]).toBeCloseTo(v, 15));
    const b = binomial(10, 0.3);
    // C(10,3)·0.3³·0.7⁷
    expect(b.pmf[3 - b.from]).toBeCloseTo(120 * 0.027 * 0.0823543, 14);
    expect(binomial(5, 0)).toEqual({ from: 0, pmf: Float64Array.of(1) });
    expect(binomial(5, 1)).toEqual({ from: 5, pmf: Float64Array.of(1) });
  });

  test('quantiles follow qbinom: 200 rows at 0.3', () => {
    // qbinom(0.025, 200, 0.3) = 48 and qbinom(0.975, 200, 0.3) = 73 (exact rational arithmetic).
    const d = binomial(200, 0.3);
    expect(countQuantile(d, 0.025)).toBe(48);
    expect(countQuantile(d, 0.975)).toBe(73);
  });
});

describe('consistencyBands', () => {
  test("an all-0.5 set's band is the binomial quantiles over the bin's count", () => {
    // qbinom(0.025 / 0.975, m, 0.5) for m = 20, 100, 1000: 6/14, 40/60, 469/531.
    for (const [m, lo, hi] of [[20, 6, 14], [100, 40, 60], [1000, 469, 531]]) {
      const bands = consistencyBands(Array.from({ length: m }, () => 0.5));
      expect(bands).toHaveLength(10);
      expect(bands[5]).toEqual({ bin: 5, count: m, lo: lo / m, hi: hi / m });
      expect(bands.filter((b) => b.count === 0).every((b) => Number.isNaN(b.lo) && Number.isNaN(b.hi))).toBe(true);
    }
  });

  test('bins follow the paper edges; a bin with a non-finite confidence has no band; empty input gives empty bins', () => {
    const bands = consistencyBands([0.3, 0.3, 0.7, NaN]);
    expect(bands[2].count).toBe(2); // 0.3 sits just below the edge 0.30000000000000004
    expect(bands[2].lo).toBe(0);
    expect(bands[6].count).toBe(1);
    expect(bands[0]).toEqual({ bin: 0, count: 1, lo: NaN, hi: NaN });
    expect(consistencyBands([]).every((b) => b.count === 0 && Number.isNaN(b.lo))).toBe(true);
    expect(consistencyBands([0.5, 0.5], { bins: 4 })).toHaveLength(4);
  });
});
