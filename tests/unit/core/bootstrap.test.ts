import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eceIntervals, pairedBootstrap, percentileInterval } from '../../../src/core/bootstrap';
import { eceEqualWidth } from '../../../src/core/calibration';
import { percentileSorted, percentiles } from '../../../src/core/percentile';

const vectors = JSON.parse(readFileSync(new URL('../../fixtures/test-vectors.json', import.meta.url), 'utf8'));
const bc = vectors.bootstrap_case as {
  rows: [number, number, number, number][];
  point_dconf: number;
  point_dece: number;
  point_dece_lo: number;
  n_lo: number;
  ci_dconf: [number, number];
  ci_dece: [number, number];
  ci_dece_lo: [number, number];
};
const input = {
  margin: bc.rows.map((r) => r[0]),
  sem1: bc.rows.map((r) => r[1]),
  sem2: bc.rows.map((r) => r[2]),
  y: bc.rows.map((r) => r[3]),
};

describe('numpy linear percentile', () => {
  it('interpolates like np.percentile', () => {
    // np.percentile([1, 2, 3, 4], [2.5, 50, 97.5]) = [1.075, 2.5, 3.925]
    expect(percentiles([4, 1, 3, 2], [2.5, 50, 97.5])).toEqual([1.075, 2.5, 3.925]);
    expect(percentileSorted([5], 97.5)).toBe(5);
    expect(percentileSorted([], 50)).toBeNaN();
  });

  it('drops non-finite values first', () => {
    expect(percentiles([NaN, 1, 2, Infinity], [0, 100])).toEqual([1, 2]);
  });

  it('gives NaN bounds when fewer than 50 replicates are finite', () => {
    const reps = Array.from({ length: 60 }, (_, i) => (i < 49 ? i : NaN));
    expect(percentileInterval(0.5, reps)).toEqual([0.5, NaN, NaN]);
    reps[50] = 3;
    expect(percentileInterval(0.5, reps)[1]).toBeCloseTo(1.225, 12);
  });
});

describe('paired bootstrap (bootstrap_case of the spec)', () => {
  const { bootstrap } = pairedBootstrap(input);

  it('reproduces the point estimates bit for bit', () => {
    expect(bootstrap.d_conf[0]).toBe(bc.point_dconf);
    expect(bootstrap.d_ece[0]).toBe(bc.point_dece);
    expect(bootstrap.d_ece_lo[0]).toBe(bc.point_dece_lo);
    expect(bootstrap.n_lo).toBe(bc.n_lo);
  });

  it('reproduces the intervals bit for bit', () => {
    expect(bootstrap.d_conf.slice(1)).toEqual(bc.ci_dconf);
    expect(bootstrap.d_ece.slice(1)).toEqual(bc.ci_dece);
    expect(bootstrap.d_ece_lo.slice(1)).toEqual(bc.ci_dece_lo);
  });

  it('records B and the seed', () => {
    expect(bootstrap.B).toBe(1000);
    expect(bootstrap.seed).toBe(7);
  });

  it('changes with the seed and with B', () => {
    const other = pairedBootstrap(input, { seed: 8 }).bootstrap;
    expect(other.d_conf[0]).toBe(bc.point_dconf);
    expect(other.d_conf[1]).not.toBe(bc.ci_dconf[0]);
    const small = pairedBootstrap(input, { B: 40 }).bootstrap;
    expect(small.d_conf[1]).toBeNaN(); // fewer than 50 finite replicates
    expect(small.B).toBe(40);
  });
});

describe('paired bootstrap edge cases', () => {
  it('empty input: all NaN, no throw', () => {
    const { bootstrap } = pairedBootstrap({ sem1: [], sem2: [], y: [], margin: [] });
    expect(bootstrap.d_conf.every(Number.isNaN)).toBe(true);
    expect(bootstrap.d_ece.every(Number.isNaN)).toBe(true);
    expect(bootstrap.d_ece_lo.every(Number.isNaN)).toBe(true);
    expect(bootstrap.n_lo).toBe(0);
  });

  it('a single row: the difference is constant, so the interval collapses on it', () => {
    const { bootstrap } = pairedBootstrap({ sem1: [0.8], sem2: [0.7], y: [1], margin: [0.6] });
    expect(bootstrap.d_conf[0]).toBeCloseTo(0.1, 15);
    expect(bootstrap.d_conf[1]).toBe(bootstrap.d_conf[0]);
    expect(bootstrap.d_conf[2]).toBe(bootstrap.d_conf[0]);
    expect(bootstrap.d_ece_lo[0]).toBeNaN(); // no low-margin rows
  });

  it('low-margin statistic only with ≥ 30 such rows', () => {
    const n = 40;
    const mk = (lowCount: number) => ({
      sem1: Array.from({ length: n }, (_, i) => 0.3 + (i % 5) * 0.1),
      sem2: Array.from({ length: n }, (_, i) => 0.25 + (i % 5) * 0.1),
      y: Array.from({ length: n }, (_, i) => i % 2),
      margin: Array.from({ length: n }, (_, i) => (i < lowCount ? 0.02 : 0.5)),
    });
    expect(pairedBootstrap(mk(29)).bootstrap.d_ece_lo[0]).toBeNaN();
    const ok = pairedBootstrap(mk(30)).bootstrap;
    expect(ok.n_lo).toBe(30);
    expect(Number.isFinite(ok.d_ece_lo[0])).toBe(true);
  });

  it('ECE intervals: point is the ECE, same replicates as the paired bootstrap', () => {
    const signals = { sem1: input.sem1, sem2: input.sem2 };
    const combined = pairedBootstrap(input, {}, signals).eceIntervals;
    const alone = eceIntervals(signals, input.y);
    expect(alone).toEqual(combined);
    // Copies are not recognised as Sem1/Sem2, so they take the general path: same bits.
    const copies = pairedBootstrap(input, {}, { sem1: [...input.sem1], sem2: [...input.sem2] }).eceIntervals;
    expect(copies).toEqual(combined);
    expect(alone.sem1[0]).toBe(eceEqualWidth(input.sem1, input.y));
    expect(alone.sem1[1]).toBeLessThanOrEqual(alone.sem1[2]);
  });

  it('intervals are ordered low ≤ high (property)', () => {
    const row = fc.tuple(
      fc.integer({ min: 0, max: 50 }).map((k) => k / 50),
      fc.integer({ min: 0, max: 50 }).map((k) => k / 50),
      fc.integer({ min: 0, max: 1 }),
      fc.integer({ min: 0, max: 50 }).map((k) => k / 50),
    );
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 80 }), fc.integer({ min: 0, max: 1000 }), (rows, seed) => {
        const { bootstrap } = pairedBootstrap(
          { sem1: rows.map((r) => r[0]), sem2: rows.map((r) => r[1]), y: rows.map((r) => r[2]), margin: rows.map((r) => r[3]) },
          { B: 100, seed },
        );
        for (const iv of [bootstrap.d_conf, bootstrap.d_ece, bootstrap.d_ece_lo]) {
          if (Number.isNaN(iv[1])) continue;
          expect(iv[1]).toBeLessThanOrEqual(iv[2]);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('the fused replicate kernel', () => {
  it('gives the same bits through its bucket path and its exact two-pass fallback', async () => {
    const { PairedKernel } = await import('../../../src/core/paired-kernel');
    const { codeSignal } = await import('../../../src/core/ece');
    const { equalWidthBinIndex, equalWidthEdges } = await import('../../../src/core/binning');
    const { defaultRng } = await import('../../../src/core/rng');
    const edges = equalWidthEdges(10);
    const code = (c: number[]) => codeSignal(c, input.y, equalWidthBinIndex(c, edges), 10);
    const low = Uint8Array.from(input.margin, (d) => (d < 1 / Math.sqrt(50) ? 1 : 0));
    const roomy = new PairedKernel(code(input.sem1), code(input.sem2), low, 30);
    const tight = new PairedKernel(code(input.sem1), code(input.sem2), low, 30, { tight: true });
    const rng = defaultRng(11);
    const rows = new Int32Array(input.y.length);
    const a = { dConf: 0, eceSem1: 0, eceSem2: 0, eceSem1Lo: 0, eceSem2Lo: 0, nLo: 0 };
    const b = { ...a };
    for (let r = 0; r < 50; r++) {
      rng.fillIntegers(0, rows.length, rows);
      roomy.run(rows, rows.length, a);
      tight.run(rows, rows.length, b);
      expect(b).toEqual(a);
    }
    expect(Number.isFinite(a.eceSem1Lo)).toBe(true);
  });
});

describe('the WebAssembly fill of the replicate kernel', () => {
  it('gives the same bits as the JS loop on random data sets and draws', async () => {
    const { PairedKernel } = await import('../../../src/core/paired-kernel');
    const { codeSignal } = await import('../../../src/core/ece');
    const { equalWidthBinIndex, equalWidthEdges } = await import('../../../src/core/binning');
    const { defaultRng } = await import('../../../src/core/rng');
    const { wasmFill } = await import('../../../src/core/paired-kernel-wasm');
    expect(wasmFill({ N: 1, bins: 1, shift: 1, packed: new Uint32Array(2), t1: new Float64Array(1), t2: new Float64Array(1), extras: [], capacity: 1 })).not.toBeNull();
    const row = fc.tuple(
      fc.oneof(fc.integer({ min: 0, max: 50 }).map((k) => k / 50), fc.double({ min: 0, max: 1, noNaN: true })),
      fc.oneof(fc.integer({ min: 0, max: 250 }).map((k) => k / 250), fc.constantFrom(0.3, 0.6, 0.7, 1)),
      fc.integer({ min: 0, max: 1 }),
      fc.integer({ min: 0, max: 50 }).map((k) => k / 50),
      fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 100 }).map((k) => k / 100)),
    );
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 400 }), fc.integer({ min: 1, max: 20 }), fc.nat(), (data, bins, seed) => {
        const edges = equalWidthEdges(bins);
        const y = data.map((r) => r[2]);
        const code = (c: number[]) => codeSignal(c, y, equalWidthBinIndex(c, edges), edges.length - 1);
        const low = Uint8Array.from(data, (r) => (r[3] < 1 / Math.sqrt(50) ? 1 : 0));
        const s1 = code(data.map((r) => r[0])), s2 = code(data.map((r) => r[1]));
        // Two extra signals (e.g. verbalized, and Sem1 again) filled in the same pass.
        const extras = [code(data.map((r) => r[4])), s1];
        const fast = new PairedKernel(s1, s2, low, 5, { extras });
        const plain = new PairedKernel(s1, s2, low, 5, { useWasm: false, extras });
        expect(fast.rowsBuffer).not.toBeNull();
        expect(plain.rowsBuffer).toBeNull();
        const rng = defaultRng(seed);
        const rows = new Int32Array(data.length);
        const a = { dConf: 0, eceSem1: 0, eceSem2: 0, eceSem1Lo: 0, eceSem2Lo: 0, nLo: 0 };
        const b = { ...a };
        for (let r = 0; r < 5; r++) {
          rng.fillIntegers(0, rows.length, rows);
          // Also a drawn subset shorter than N, and one row repeated (overflows its bucket: fallback).
          const m = r === 3 ? Math.max(1, rows.length >> 1) : rows.length;
          if (r === 4) rows.fill(rows[0]);
          fast.run(rows, m, a);
          plain.run(rows, m, b);
          expect(a).toEqual(b);
          expect(fast.extraEce).toEqual(plain.extraEce);
          expect(fast.extraEce[1]).toBe(a.eceSem1);
          const sub = Array.from(rows.subarray(0, m));
          expect(fast.extraEce[0]).toBe(eceEqualWidth(sub.map((r) => data[r][4]), sub.map((r) => y[r]), bins));
          fast.rowsBuffer!.set(rows);
          fast.run(fast.rowsBuffer!, m, a);
          expect(a).toEqual(b);
        }
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});

describe('BinnedEceWorkspace', () => {
  it('equals eceEqualWidth on any row subset, through buckets or the two-pass fallback', async () => {
    const { BinnedEceWorkspace, codeSignal } = await import('../../../src/core/ece-workspace');
    const { equalWidthBinIndex, equalWidthEdges } = await import('../../../src/core/binning');
    const edges = equalWidthEdges(10);
    const signal = codeSignal(input.sem2, input.y, equalWidthBinIndex(input.sem2, edges), 10);
    const ws = new BinnedEceWorkspace(input.y.length, 10);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: input.y.length - 1 }), { minLength: 1, maxLength: input.y.length }),
        (picked) => {
          const rows = Int32Array.from(picked);
          const direct = eceEqualWidth(picked.map((r) => input.sem2[r]), picked.map((r) => input.y[r]));
          expect(ws.ece(signal, rows, rows.length)).toBe(direct);
        },
      ),
      { numRuns: 60 },
    );
    // One row repeated N times overflows its bin's bucket: the fallback must give the same bits.
    const same = new Int32Array(input.y.length).fill(5);
    expect(ws.ece(signal, same, same.length)).toBe(eceEqualWidth(Array(same.length).fill(input.sem2[5]), Array(same.length).fill(input.y[5])));
  });
});
