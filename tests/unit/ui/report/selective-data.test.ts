import { describe, expect, it } from 'vitest';
import { riskCoverageCurve } from '../../../../src/core/risk-coverage';
import type { ModelReport, ReportQuestion } from '../../../../src/model/report';
import { modelMetrics } from '../../../../src/pipeline/score-stage';
import { modelAbstention, selectiveColumns, signalCurve, thinCurve, thresholdOnCurve } from '../../../../src/ui/report/selective-data';

/** The core test's hand-computed fixture as report questions: Sem2 carries the confidences, row 10 is declined. */
const conf = [0.9, 0.3, 0.9, 0.7, 0.8, 0.6, 0.6, 0.8, 0.5, 0.95, 0.6, 0.4];
const y = [1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0];
const questions: ReportQuestion[] = conf.map((c, i) => ({
  id: `q${i}`, question: `Q${i}`, gold: 'g', n: 10, sem1: 1 - c / 2, sem2: c, verbalized: 0.9,
  correct: y[i] as 0 | 1, grade: y[i] ? 'CORRECT' : i === 10 ? 'NOT_ATTEMPTED' : 'INCORRECT',
  margin: 0.2, stdMargin: 0.6, regime: 'low-margin', entropy: 0.5, nClasses: 2, modalLabel: 'a',
}));
const model: ModelReport = { model: 'm', metrics: modelMetrics(questions, { excluded: 0 }, { B: 20, smooth: false }), questions, excludedQuestions: [] };

describe('the selective view’s data', () => {
  it('reads the columns the metrics were scored from', () => {
    const c = selectiveColumns(model, 'sem2');
    expect(Array.from(c.conf)).toEqual(conf);
    expect(Array.from(c.y)).toEqual(y);
    expect(Array.from(c.declined)).toEqual(conf.map((_, i) => (i === 10 ? 1 : 0)));
  });

  it('draws, for every signal, the curve whose area is the AURC the report stored', () => {
    for (const s of ['sem1', 'sem2', 'verbalized'] as const) {
      const sc = signalCurve(model, s);
      expect(sc.curve.area).toBe(sc.storedAurc);
      expect(sc.points.length).toBe(12);
    }
  });

  it('reads the threshold the report stored at the default target and seed, and computes (once) any other', () => {
    // Six selection-half questions certify no error of 10% (or 20%): abstain on every question, every split.
    const kept = modelAbstention(model, 'sem2', 0.1, 0);
    expect(kept.stored).toBe(true);
    expect(kept).toMatchObject({ ...model.metrics.abstention!.bySignal.sem2, target: 0.1, seed: 0 });
    expect(kept.threshold).toBeNull();
    expect(kept.evaluation.notAttempted).toBe(6);
    expect(kept.spread.splits).toHaveLength(20);
    expect(kept.spread.abstainedOnAll).toBe(20);
    const other = modelAbstention(model, 'sem2', 0.2, 0);
    expect(other.stored).toBe(false);
    expect(other.threshold).toBeNull();
    expect(other.choice.tried).toBe(5);
    expect(modelAbstention(model, 'sem2', 0.2, 0)).toBe(other);
  });

  it('puts a threshold at the end of its tie group on the curve of all questions', () => {
    const curve = signalCurve(model, 'sem2').curve;
    // conf ≥ 0.6: 0.95, 0.9 ×2, 0.8 ×2, 0.7, 0.6 ×3 = 9 questions, of which rows 7, 3 and 10 are wrong.
    expect(thresholdOnCurve(curve, 0.6)).toEqual({ k: 9, coverage: 9 / 12, risk: 3 / 9 });
    expect(thresholdOnCurve(curve, null)).toBeNull();
    expect(thresholdOnCurve(curve, 0.99)).toBeNull();
  });
});

describe('thinCurve', () => {
  it('keeps every point of a small curve, and of a long one keeps per column its ends and extremes', () => {
    const n = 20_000;
    // A deterministic wiggle of correct and wrong answers.
    const c = Float64Array.from({ length: n }, (_, i) => 1 - i / n);
    const yy = Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 13 < 3 ? 0 : 1));
    const curve = riskCoverageCurve(c, yy);
    const thin = thinCurve(curve, 100);
    expect(thin.length).toBeLessThanOrEqual(400);
    expect(thin[0]).toEqual({ k: 1, coverage: 1 / n, risk: curve.risk[0] });
    expect(thin[thin.length - 1].k).toBe(n);
    // The drawn points are points of the curve, in order, and the extremes of every column survive.
    for (const p of thin) expect(curve.risk[p.k - 1]).toBe(p.risk);
    for (let i = 1; i < thin.length; i++) expect(thin[i].k).toBeGreaterThan(thin[i - 1].k);
    expect(Math.max(...thin.map((p) => p.risk))).toBe(Math.max(...curve.risk));
    expect(Math.min(...thin.map((p) => p.risk))).toBe(Math.min(...curve.risk));
    expect(thinCurve(riskCoverageCurve([0.5, 0.4], [1, 0]), 100)).toHaveLength(2);
  });
});
