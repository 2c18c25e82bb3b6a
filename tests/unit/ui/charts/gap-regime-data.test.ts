import { describe, expect, test } from 'vitest';
import { quantileSorted } from 'd3-array';
import { gapData, gapPoints, typicalN } from '../../../../src/ui/charts/gap-data';
import { smallBinsOf } from '../../../../src/pipeline/small-bins';
import { regimeBars } from '../../../../src/ui/charts/regime-data';
import type { ReportQuestion, ModelMetrics } from '../../../../src/model/report';

function q(id: string, sem1: number, sem2: number, margin: number, n = 50): ReportQuestion {
  return {
    id, question: `q ${id}`, gold: 'g', n, sem1, sem2, verbalized: 0.9, correct: 1, grade: 'CORRECT',
    margin, stdMargin: Math.sqrt(n) * margin, regime: 'low-margin', entropy: 0, nClasses: 2, modalLabel: 'x',
  };
}

describe('gap data', () => {
  test('points carry Sem1 − Sem2 and skip non-finite values', () => {
    const pts = gapPoints([q('a', 0.6, 0.5, 0.2), q('b', NaN, 0.5, 0.2)]);
    expect(pts).toHaveLength(1);
    expect(pts[0].gap).toBeCloseTo(0.1, 12);
  });
  test('over maxPoints the questions are summarised per distinct margin', () => {
    const rows = Array.from({ length: 300 }, (_, i) => q(String(i), 0.5 + (i % 3) * 0.1, 0.5, (i % 3) * 0.1 + 0.1));
    const data = gapData(rows, 100);
    expect(data.kind).toBe('groups');
    if (data.kind !== 'groups') return;
    expect(data.total).toBe(300);
    expect(data.groups.map((g) => g.count)).toEqual([100, 100, 100]);
    expect(data.groups.map((g) => g.meanGap)).toEqual([expect.closeTo(0, 12), expect.closeTo(0.1, 12), expect.closeTo(0.2, 12)]);
    expect(gapData(rows, 300).kind).toBe('points');
  });
  test('group quantiles agree with d3-array quantileSorted', () => {
    const rows = Array.from({ length: 500 }, (_, i) => q(String(i), 0.5 + ((i * 37) % 101) / 1000, 0.5, (i % 5) / 10));
    const data = gapData(rows, 10);
    if (data.kind !== 'groups') throw new Error('expected groups');
    for (const g of data.groups) {
      const gaps = rows.filter((r) => Math.abs(r.margin - g.margin) < 1e-9).map((r) => r.sem1 - r.sem2).sort((a, b) => a - b);
      expect(g.low).toBeCloseTo(quantileSorted(gaps, 0.1)!, 12);
      expect(g.high).toBeCloseTo(quantileSorted(gaps, 0.9)!, 12);
    }
  });
  test('many distinct margins fall back to equal-width margin bins', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => q(String(i), 0.6, 0.5, i / 1000));
    const data = gapData(rows, 10);
    if (data.kind !== 'groups') throw new Error('expected groups');
    expect(data.groups).toHaveLength(60);
    expect(data.groups.reduce((s, g) => s + g.count, 0)).toBe(1000);
  });
  test('the typical n is the most common one', () => {
    expect(typicalN([q('a', 1, 1, 1, 50), q('b', 1, 1, 1, 20), q('c', 1, 1, 1, 50)])).toBe(50);
  });
});

describe('regimeBars', () => {
  test('skips empty regimes and signals without a finite ECE', () => {
    const byRegime: ModelMetrics['byRegime'] = {
      jensen: { count: 0, ece: { sem1: NaN } },
      'low-margin': { count: 12, ece: { sem1: 0.2, sem2: 0.1, verbalized: NaN } },
      'large-margin': { count: 30, ece: { sem1: 0.05, sem2: 0.04 } },
    };
    // The low-margin regime's 12 questions fall in bins of 8 and 4 (both under 10); the large-margin one's in bins of 10, 10 and 10.
    const small = (regime: string) => smallBinsOf(regime === 'low-margin' ? [0, 0, 8, 0, 4, 0, 0, 0, 0, 0] : [0, 0, 0, 0, 0, 0, 0, 10, 10, 10]);
    const bars = regimeBars(byRegime, ['sem1', 'sem2', 'verbalized'], small);
    expect(bars.map((b) => `${b.regime}:${b.signal}`)).toEqual(['low-margin:sem1', 'low-margin:sem2', 'large-margin:sem1', 'large-margin:sem2']);
    expect(bars[0].count).toBe(12);
    // The per-bin rule: a regime's ECE resting on a bin under 10 questions is marked; bins of 10 are not.
    expect(bars.map((b) => b.tooFew)).toEqual([true, true, false, false]);
  });
});
