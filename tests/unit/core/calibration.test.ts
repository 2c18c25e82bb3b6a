import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  accuracy,
  aurc,
  auroc,
  brierDecomposition,
  brierScore,
  eceEqualMass,
  eceEqualWidth,
  equalMassBins,
  equalWidthBinOf,
  equalWidthEdges,
  mce,
  MCE_MIN_COUNT,
  reliabilityBins,
  signalMetrics,
  smoothEce,
  smoothEceAt,
  smoothEceWithBandwidth,
} from '../../../src/core/calibration';
import { defaultRng } from '../../../src/core/rng';

const vectors = JSON.parse(
  readFileSync(new URL('../../fixtures/test-vectors.json', import.meta.url), 'utf8'),
);
const eceCase = vectors.ece_case as { conf: number[]; y: number[]; bins: number[]; ece10: number };

describe('equal-width bins (edges i*0.1)', () => {
  it('builds the edges as i*0.1, not i/10', () => {
    const edges = equalWidthEdges(10);
    expect(edges[3]).toBe(0.30000000000000004);
    expect(edges[6]).toBe(0.6000000000000001);
    expect(edges[7]).toBe(0.7000000000000001);
    expect(edges[10]).toBe(1);
  });

  it('puts 0.3, 0.6, 0.7 in the lower bin and 1.0 in the last one', () => {
    const edges = equalWidthEdges(10);
    expect(equalWidthBinOf(0.3, edges)).toBe(2);
    expect(equalWidthBinOf(0.30000000000000004, edges)).toBe(3);
    expect(equalWidthBinOf(0.6, edges)).toBe(5);
    expect(equalWidthBinOf(0.7, edges)).toBe(6);
    expect(equalWidthBinOf(1.0, edges)).toBe(9);
    expect(equalWidthBinOf(0, edges)).toBe(0);
  });

  it('reproduces the bins of ece_case', () => {
    const edges = equalWidthEdges(10);
    expect(eceCase.conf.map((c) => equalWidthBinOf(c, edges))).toEqual(eceCase.bins);
  });
});

describe('eceEqualWidth (the paper ECE)', () => {
  it('reproduces ece_case bit for bit', () => {
    expect(eceEqualWidth(eceCase.conf, eceCase.y)).toBe(eceCase.ece10);
  });

  it('is NaN on empty input and does not throw', () => {
    expect(eceEqualWidth([], [])).toBeNaN();
    expect(mce([], [])).toBeNaN();
  });

  it('single row: |y − c|', () => {
    expect(eceEqualWidth([0.8], [1])).toBe(Math.abs(1 - 0.8));
    expect(eceEqualWidth([0.8], [0])).toBe(0.8);
  });

  it('all correct at confidence 1 is perfectly calibrated; all wrong is maximally off', () => {
    expect(eceEqualWidth([1, 1, 1], [1, 1, 1])).toBe(0);
    expect(eceEqualWidth([1, 1, 1], [0, 0, 0])).toBe(1);
  });

  it('confidences exactly on 0.3, 0.6, 0.7, 1.0 land in the lower bins', () => {
    const bins = reliabilityBins([0.3, 0.6, 0.7, 1.0], [1, 0, 1, 1]);
    expect(bins.map((b) => b.count)).toEqual([0, 0, 1, 0, 0, 1, 1, 0, 0, 1]);
    // Each row alone in its bin: ECE is the mean absolute gap.
    const expected = (0.7 / 4) + (0.6 / 4) + ((1 - 0.7) / 4) + 0;
    expect(eceEqualWidth([0.3, 0.6, 0.7, 1.0], [1, 0, 1, 1])).toBeCloseTo(expected, 15);
  });

  it('uses pairwise means within a bin (not a running sum)', () => {
    // 9 values of 0.1 in one bin: a running sum gives 0.8999999999999999, numpy's pairwise
    // sum (blocks of 8 then the leftover) gives the same here, so build a case where they differ.
    const conf = [0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.111];
    let running = 0;
    for (const c of conf) running += c;
    const r = [0, 0, 0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 8; i++) r[i] = conf[i];
    const pairwise = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])) + conf[8] + conf[9];
    expect(pairwise).not.toBe(running);
    const y = conf.map(() => 0);
    expect(eceEqualWidth(conf, y)).toBe(pairwise / 10);
  });
});

describe('reliabilityBins', () => {
  it('gives count, mean confidence, accuracy and edges of every bin', () => {
    const bins = reliabilityBins(eceCase.conf, eceCase.y, 10);
    expect(bins).toHaveLength(10);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(eceCase.conf.length);
    expect(bins[9]).toMatchObject({ lo: 0.9, hi: 1, count: 4 });
    expect(bins[9].accuracy).toBe(1);
    expect(bins[9].meanConfidence).toBeCloseTo((0.9 + 0.95 + 1 + 0.99) / 4, 15);
  });

  it('keeps empty bins with NaN means', () => {
    const bins = reliabilityBins([0.95], [1], 10);
    expect(bins[0].count).toBe(0);
    expect(bins[0].meanConfidence).toBeNaN();
    expect(bins[0].accuracy).toBeNaN();
  });

  it('supports other bin counts with edges i*(1/L)', () => {
    const bins = reliabilityBins([0.2, 0.25, 0.5, 1], [1, 0, 1, 1], 4);
    expect(bins.map((b) => [b.lo, b.hi, b.count])).toEqual([
      [0, 0.25, 1],
      [0.25, 0.5, 1],
      [0.5, 0.75, 1],
      [0.75, 1, 1],
    ]);
  });
});

describe('MCE', () => {
  it('is the largest bin gap over bins with at least minCount questions', () => {
    expect(mce([0.15, 0.15, 0.95], [0, 1, 1], 10, 1)).toBeCloseTo(0.35, 15);
    expect(mce([0.95], [1], 10, 1)).toBeCloseTo(0.05, 15);
  });

  it('ignores bins with fewer than MCE_MIN_COUNT (10) questions', () => {
    expect(MCE_MIN_COUNT).toBe(10);
    // 20 questions at 0.75, 15 right (gap 0), and 2 at 0.95, both wrong (gap 0.95): the two-question
    // bin would make the MCE 0.95; only the 20-question bin counts.
    const conf = [...Array(20).fill(0.75), 0.95, 0.95];
    const y = [...Array(15).fill(1), ...Array(5).fill(0), 0, 0];
    expect(mce(conf, y)).toBe(0);
    expect(mce(conf, y, 10, 1)).toBeCloseTo(0.95, 15);
    // A bin of exactly 10 counts; no bin that large gives NaN.
    expect(mce(Array(10).fill(0.55), [...Array(5).fill(1), ...Array(5).fill(0)])).toBeCloseTo(0.05, 15);
    expect(mce(Array(9).fill(0.55), Array(9).fill(1))).toBeNaN();
    expect(signalMetrics(conf, y, { smooth: false }).mce).toBe(0);
  });
});

describe('equal-mass ECE', () => {
  it('splits the sorted rows into bins of equal size', () => {
    const conf = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6, 1.0];
    const y = [1, 0, 1, 0, 1, 0, 1, 0, 1, 1];
    const bins = equalMassBins(conf, y, 5);
    expect(bins.map((b) => b.count)).toEqual([2, 2, 2, 2, 2]);
    expect(bins.map((b) => [b.lo, b.hi])).toEqual([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8], [0.9, 1.0]]);
  });

  it('never splits equal confidences between bins', () => {
    const conf = [0.5, 0.5, 0.5, 0.5, 0.9, 0.9];
    const bins = equalMassBins(conf, [1, 0, 1, 0, 1, 1], 3);
    expect(bins.map((b) => b.count)).toEqual([4, 2]);
    expect(eceEqualMass(conf, [1, 0, 1, 0, 1, 1], 3)).toBeCloseTo((2 / 6) * 0.1, 15);
  });

  it('does not depend on row order', () => {
    const conf = [0.3, 0.3, 0.6, 0.7, 0.3, 0.9, 0.6, 0.1];
    const y = [1, 0, 1, 1, 0, 1, 0, 0];
    const perm = [7, 2, 5, 0, 3, 6, 1, 4];
    expect(eceEqualMass(perm.map((i) => conf[i]), perm.map((i) => y[i]), 4)).toBeCloseTo(
      eceEqualMass(conf, y, 4),
      15,
    );
  });

  it('is NaN for empty input', () => {
    expect(eceEqualMass([], [])).toBeNaN();
    expect(equalMassBins([], [])).toEqual([]);
  });
});

describe('Brier score and Murphy decomposition', () => {
  it('gives 0.1875 for always 25% on 4-option questions answered right a quarter of the time', () => {
    const conf = [0.25, 0.25, 0.25, 0.25];
    const y = [1, 0, 0, 0];
    expect(brierScore(conf, y)).toBe(0.1875);
    const d = brierDecomposition(conf, y);
    expect(d.reliability).toBe(0);
    expect(d.resolution).toBe(0);
    expect(d.uncertainty).toBe(0.1875);
  });

  it('decomposes a hand-computed case', () => {
    // Groups: 0.8 → y (1,1,0): o = 2/3; 0.2 → y (0): o = 0. ō = 1/2.
    const d = brierDecomposition([0.8, 0.8, 0.8, 0.2], [1, 1, 0, 0]);
    expect(d.score).toBeCloseTo((0.04 + 0.04 + 0.64 + 0.04) / 4, 15);
    expect(d.reliability).toBeCloseTo((3 * (0.8 - 2 / 3) ** 2 + 0.04) / 4, 15);
    expect(d.resolution).toBeCloseTo((3 * (2 / 3 - 0.5) ** 2 + 0.25) / 4, 15);
    expect(d.uncertainty).toBe(0.25);
    expect(d.reliability - d.resolution + d.uncertainty).toBeCloseTo(d.score, 14);
    // One forecast value per bin: the within-bin terms vanish and Murphy's identity is exact.
    expect(d.withinBinVariance).toBeCloseTo(0, 15);
    expect(d.withinBinCovariance).toBeCloseTo(0, 15);
  });

  it('splits into the five Stephenson terms on the 10 equal-width bins, exactly', () => {
    // Bin [0.8, 0.9): 0.8 → 1, 0.85 → 0, 0.88 → 1; bin [0.1, 0.2): 0.1 → 0, 0.15 → 1.
    const conf = [0.8, 0.85, 0.88, 0.1, 0.15];
    const y = [1, 0, 1, 0, 1];
    const d = brierDecomposition(conf, y);
    const fA = (0.8 + 0.85 + 0.88) / 3, oA = 2 / 3, fB = 0.125, oB = 0.5, o = 3 / 5;
    expect(d.reliability).toBeCloseTo((3 * (fA - oA) ** 2 + 2 * (fB - oB) ** 2) / 5, 15);
    expect(d.resolution).toBeCloseTo((3 * (oA - o) ** 2 + 2 * (oB - o) ** 2) / 5, 15);
    expect(d.uncertainty).toBeCloseTo(o * (1 - o), 15);
    expect(d.withinBinVariance).toBeCloseTo(((0.8 - fA) ** 2 + (0.85 - fA) ** 2 + (0.88 - fA) ** 2 + (0.1 - fB) ** 2 + (0.15 - fB) ** 2) / 5, 15);
    const cov = (0.8 - fA) * (1 - oA) + (0.85 - fA) * (0 - oA) + (0.88 - fA) * (1 - oA) + (0.1 - fB) * (0 - oB) + (0.15 - fB) * (1 - oB);
    expect(d.withinBinCovariance).toBeCloseTo((2 * cov) / 5, 15);
    const sum = d.reliability - d.resolution + d.uncertainty + d.withinBinVariance! - d.withinBinCovariance!;
    expect(Math.abs(sum - d.score)).toBeLessThan(1e-15);
    // The score itself is the plain mean of squared errors, as before.
    expect(d.score).toBe(brierScore(conf, y));
  });

  it('gives a signal without information ~0 resolution, where grouping by distinct value gave it ~the uncertainty', () => {
    // 1,000 questions, 60% right, confidences all distinct and independent of correctness
    // (AUROC ≈ 0.5): each would be a group of its own, and Σ (y − ō)² / N = ō(1 − ō) = 0.24.
    const rng = defaultRng(11);
    const conf = Array.from({ length: 1000 }, () => 0.3 + 0.6 * rng.random());
    const y = Array.from({ length: 1000 }, () => (rng.random() < 0.6 ? 1 : 0));
    const d = brierDecomposition(conf, y);
    expect(new Set(conf).size).toBe(1000);
    expect(d.uncertainty).toBeGreaterThan(0.2);
    // Plug-in bias ≈ (bins used − 1)·ō(1 − ō)/N ≈ 6 × 0.24 / 1000 ≈ 0.0014.
    expect(d.resolution).toBeLessThan(0.01);
    const sum = d.reliability - d.resolution + d.uncertainty + d.withinBinVariance! - d.withinBinCovariance!;
    expect(Math.abs(sum - d.score)).toBeLessThan(1e-14);
  });

  it('is NaN for empty input', () => {
    const d = brierDecomposition([], []);
    expect([d.score, d.reliability, d.resolution, d.uncertainty].every(Number.isNaN)).toBe(true);
  });
});

describe('AUROC', () => {
  it('is 1 for perfect ranking, 0 for reversed, 0.5 for all ties', () => {
    expect(auroc([0.9, 0.8, 0.2, 0.1], [1, 1, 0, 0])).toBe(1);
    expect(auroc([0.1, 0.2, 0.8, 0.9], [1, 1, 0, 0])).toBe(0);
    expect(auroc([0.5, 0.5, 0.5, 0.5], [1, 0, 1, 0])).toBe(0.5);
  });

  it('counts ties half', () => {
    // pos {0.8, 0.5}, neg {0.5, 0.2}: pairs (0.8>0.5) 1, (0.8>0.2) 1, (0.5=0.5) ½, (0.5>0.2) 1 → 3.5/4.
    expect(auroc([0.8, 0.5, 0.5, 0.2], [1, 1, 0, 0])).toBe(0.875);
  });

  it('is NaN when one class is absent or input is empty', () => {
    expect(auroc([0.3, 0.9], [1, 1])).toBeNaN();
    expect(auroc([0.3, 0.9], [0, 0])).toBeNaN();
    expect(auroc([], [])).toBeNaN();
  });
});

describe('AURC', () => {
  it('averages the selective risk over coverage levels', () => {
    // Sorted by confidence: y = 1, 0, 1 → risks 0/1, 1/2, 1/3.
    expect(aurc([0.9, 0.5, 0.1], [1, 0, 1])).toBeCloseTo((0 + 1 / 2 + 1 / 3) / 3, 15);
  });

  it('averages over orders of tied confidences', () => {
    // One tie group of 2 with one error: expected risks 1/2 at k=1 and 1/2 at k=2.
    expect(aurc([0.5, 0.5], [1, 0])).toBeCloseTo(0.5, 15);
    expect(aurc([0.5, 0.5], [0, 1])).toBeCloseTo(0.5, 15);
  });

  it('is 0 when all correct, 1 when all wrong, NaN when empty', () => {
    expect(aurc([0.2, 0.7], [1, 1])).toBe(0);
    expect(aurc([0.2, 0.7], [0, 0])).toBe(1);
    expect(aurc([], [])).toBeNaN();
  });
});

describe('smooth ECE', () => {
  it('equals |accuracy − c| when every row has the same confidence', () => {
    // The reflected kernel keeps each row's weight at 1, so the smoothed residual integrates to
    // the plain gap whatever the bandwidth.
    const conf = Array(40).fill(0.6);
    const y = Array.from({ length: 40 }, (_, i) => (i < 10 ? 1 : 0));
    expect(smoothEceAt(conf, y, 0.05)).toBeCloseTo(0.35, 6);
    expect(smoothEceAt(conf, y, 0.5)).toBeCloseTo(0.35, 6);
    expect(smoothEce(conf, y)).toBeCloseTo(0.35, 3);
  });

  it('keeps weight at the boundaries 0 and 1', () => {
    expect(smoothEceAt([1, 1, 1, 1], [0, 0, 0, 0], 0.1)).toBeCloseTo(1, 6);
    expect(smoothEceAt([0, 0], [1, 1], 0.1)).toBeCloseTo(1, 6);
  });

  it('is 0 for perfectly calibrated rows and NaN for empty input', () => {
    expect(smoothEce([1, 0, 1], [1, 0, 1])).toBeCloseTo(0, 12);
    expect(smoothEce([], [])).toBeNaN();
  });

  it('pools residuals on both sides of a bin edge, unlike binning', () => {
    // Mean confidence 0.3, accuracy 0.5: smoothing sees one gap of 0.2, while the bin edge at
    // 0.30000000000000004 splits the rows into gaps 0.701 and 0.301 (binned ECE 0.501).
    const conf = [0.299, 0.301];
    const y = [1, 0];
    expect(smoothEce(conf, y)).toBeCloseTo(0.2, 3);
    expect(eceEqualWidth(conf, y)).toBeCloseTo(0.501, 12);
  });
});

describe('accuracy and signalMetrics', () => {
  it('accuracy is the mean of Y, NaN when empty', () => {
    expect(accuracy([1, 0, 1, 1])).toBe(0.75);
    expect(accuracy([])).toBeNaN();
  });

  it('fills every field of SignalMetrics', () => {
    const m = signalMetrics(eceCase.conf, eceCase.y);
    expect(m.ece).toBe(eceCase.ece10);
    expect(m.bins).toHaveLength(10);
    // 20 questions: no bin reaches MCE_MIN_COUNT, so the MCE is NaN; over every bin it bounds the ECE.
    expect(m.mce).toBeNaN();
    expect(mce(eceCase.conf, eceCase.y, 10, 1)).toBeGreaterThanOrEqual(m.ece);
    expect(Number.isFinite(m.eceEqualMass)).toBe(true);
    expect(Number.isFinite(m.smoothEce)).toBe(true);
    expect(m.auroc).toBeGreaterThanOrEqual(0);
    expect(m.aurc).toBeGreaterThanOrEqual(0);
    const b = m.brier;
    expect(b.score).toBeCloseTo(b.reliability - b.resolution + b.uncertainty + b.withinBinVariance! - b.withinBinCovariance!, 12);
  });

  it('keeps the bandwidth smooth ECE was evaluated at: the self-consistent σ, NaN when not computed', () => {
    const m = signalMetrics(eceCase.conf, eceCase.y);
    const { value, sigma } = smoothEceWithBandwidth(eceCase.conf, eceCase.y);
    expect(m.smoothEceBandwidth).toBe(sigma);
    expect(m.smoothEce).toBe(value);
    // The same value again at that σ: the report's "(bandwidth σ)" is where the number was taken.
    expect(smoothEceAt(eceCase.conf, eceCase.y, m.smoothEceBandwidth!)).toBe(m.smoothEce);
    expect(m.smoothEceBandwidth).toBeGreaterThan(0);
    expect(m.smoothEceBandwidth).toBeLessThanOrEqual(1);
    const skipped = signalMetrics(eceCase.conf, eceCase.y, { smooth: false });
    expect(skipped.smoothEce).toBeNaN();
    expect(skipped.smoothEceBandwidth).toBeNaN();
    expect(signalMetrics([], []).smoothEceBandwidth).toBeNaN();
  });

  it('gives NaN everywhere (and empty bins) for empty input', () => {
    const m = signalMetrics([], []);
    expect([m.ece, m.eceEqualMass, m.mce, m.smoothEce, m.auroc, m.aurc, m.meanConfidence, m.brier.score].every(Number.isNaN)).toBe(true);
    expect(m.bins.every((b) => b.count === 0)).toBe(true);
  });
});
