import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SmoothEceGrid, smoothEce, smoothEceAt, smoothEceWithBandwidth } from '../../../src/core/smooth-ece';
import { bisectBandwidth, exactSmoothEceAt, legacySmoothEceAt } from './smooth-ece-reference';

/** Small data sets: confidences often exactly 0 or 1 (boundary masses), sometimes just outside. */
const rows = fc.array(
  fc.tuple(
    fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.constantFrom(0, 1, 0.5, 1e-9, 1 - 1e-9),
      fc.double({ min: -0.05, max: 1.05, noNaN: true }),
    ),
    fc.integer({ min: 0, max: 1 }),
  ),
  { minLength: 1, maxLength: 24 },
);
const split = (r: [number, number][]) => [r.map((x) => x[0]), r.map((x) => x[1])] as const;
const sigmas = fc.constantFrom(0.002, 0.004, 0.011, 0.03, 0.07, 0.2, 0.45, 1);

describe('smooth ECE on grids against the gridless definition', () => {
  it('is within 3e-6 of the exact integral at a fixed bandwidth', () => {
    // Error budget (file comment of smooth-ece.ts): cubic binning and its restrictions ≈ 2e-6·mean|r|
    // at a step ≤ σ/16; quadrature O(h³) per sign change; truncation < 1e-13. The reference's own
    // quadrature error (8,000 intervals, O(h³) per sign change) is far below that.
    fc.assert(
      fc.property(rows, sigmas, (r, sigma) => {
        const [c, y] = split(r);
        expect(Math.abs(smoothEceAt(c, y, sigma) - exactSmoothEceAt(c, y, sigma))).toBeLessThanOrEqual(3e-6);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('agrees with the previous implementation at a fixed bandwidth within its own error (5e-5)', () => {
    fc.assert(
      fc.property(rows, sigmas, (r, sigma) => {
        const [c, y] = split(r);
        expect(Math.abs(smoothEceAt(c, y, sigma) - legacySmoothEceAt(c, y, sigma))).toBeLessThanOrEqual(5e-5);
      }),
      { numRuns: 60 },
    );
  });

  it('finds the previous implementation’s bandwidth to within one bisection step', () => {
    // σ − smECE_σ is increasing (smoothing never raises the L¹ norm), so both bisections bracket
    // the same fixed point; they can part only where the two evaluators straddle it, which moves
    // the final σ by at most a step (2^-10) plus the evaluators' difference.
    fc.assert(
      fc.property(rows, (r) => {
        const [c, y] = split(r);
        const fast = smoothEceWithBandwidth(c, y);
        const legacy = bisectBandwidth((s) => legacySmoothEceAt(c, y, s));
        expect(Math.abs(fast.sigma - legacy.sigma)).toBeLessThanOrEqual(2 ** -10 + 1e-4);
        expect(Math.abs(fast.value - legacy.value)).toBeLessThanOrEqual(2 ** -10 + 1e-4);
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it('gives the same bits through one cached grid as through a fresh one per bandwidth', () => {
    fc.assert(
      fc.property(rows, fc.array(sigmas, { minLength: 1, maxLength: 6 }), (r, list) => {
        const [c, y] = split(r);
        const grid = new SmoothEceGrid(c, y);
        for (const s of list) expect(grid.at(s)).toBe(smoothEceAt(c, y, s));
      }),
      { numRuns: 40 },
    );
  });

  it('handles g crossing zero exactly on a grid node (data symmetric about ½)', () => {
    for (const sigma of [0.03, 0.2, 0.45, 1]) {
      for (const [c, y] of [[[0, 1], [1, 0]], [[0.25, 0.75], [1, 0]], [[0.5, 0.5, 0.1, 0.9], [1, 0, 1, 0]]]) {
        expect(Math.abs(smoothEceAt(c, y, sigma) - exactSmoothEceAt(c, y, sigma))).toBeLessThanOrEqual(3e-6);
      }
    }
  });

  it('works on a bandwidth below the binned grid’s reach', () => {
    const c = [0.2, 0.21, 0.8], y = [1, 0, 0];
    expect(Math.abs(smoothEceAt(c, y, 0.0005) - exactSmoothEceAt(c, y, 0.0005, 200000))).toBeLessThanOrEqual(3e-6);
  });

  it('is NaN for NaN inputs, empty input and a bandwidth ≤ 0, like before', () => {
    expect(smoothEceWithBandwidth([0.2, NaN], [1, 0])).toEqual({ value: NaN, sigma: NaN });
    expect(smoothEceWithBandwidth([0.2, 0.4], [1, NaN]).value).toBeNaN();
    expect(smoothEceAt([0.2], [1], 0)).toBeNaN();
    expect(smoothEceAt([], [], 0.1)).toBeNaN();
    expect(smoothEce([], [])).toBeNaN();
  });

  it('matches the previous implementation on 40,000 rows', () => {
    let seed = 1;
    const rand = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const c = Float64Array.from({ length: 40_000 }, () => Math.round(rand() * 50) / 50);
    const y = Float64Array.from(c, (v) => (rand() < 0.9 * v + 0.05 ? 1 : 0));
    const fast = smoothEceWithBandwidth(c, y);
    const legacy = bisectBandwidth((s) => legacySmoothEceAt(c, y, s));
    expect(Math.abs(fast.sigma - legacy.sigma)).toBeLessThanOrEqual(2 ** -10);
    expect(Math.abs(fast.value - legacy.value)).toBeLessThanOrEqual(2 ** -10);
    expect(Math.abs(smoothEceAt(c, y, fast.sigma) - legacySmoothEceAt(c, y, fast.sigma))).toBeLessThanOrEqual(5e-5);
  });
});
