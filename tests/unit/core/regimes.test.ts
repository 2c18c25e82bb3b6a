import { describe, expect, test } from 'vitest';
import { jensenBoundary, regimeBoundaries, regimeOf } from '../../../src/core/regimes';

describe('regimeBoundaries', () => {
  test('follow the spec: 0.612/√n and √(ln K̄ / n)', () => {
    const b = regimeBoundaries(50, 3);
    expect(b.jensen).toBeCloseTo(0.612 / Math.sqrt(50), 12);
    expect(b.large).toBeCloseTo(Math.sqrt(Math.log(3) / 50), 12);
    expect(regimeBoundaries(50, 1).large).toBe(0);
    // The Classroom's chart draws the Jensen edge alone, at any K̄.
    expect(jensenBoundary(50)).toBe(b.jensen);
    expect(jensenBoundary(20)).toBeCloseTo(0.612 / Math.sqrt(20), 12);
  });
  test('are where regimeOf changes its answer', () => {
    const n = 50;
    const { jensen, large } = regimeBoundaries(n, 3);
    const at = (margin: number) => regimeOf(Math.sqrt(n) * margin, margin, n, 3);
    expect(at(jensen * 0.999)).toBe('jensen');
    expect(at(jensen * 1.001)).toBe('low-margin');
    expect(at(large * 0.999)).toBe('low-margin');
    expect(at(large * 1.001)).toBe('large-margin');
  });
});
