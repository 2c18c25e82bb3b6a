import { describe, expect, test } from 'vitest';
import { applyGradeOverride, boundedModelMetrics, recomputeMetrics, RecomputeTooLargeError } from '../../../src/pipeline/overrides-recompute';
import { MAX_BOOTSTRAP_B } from '../../../src/model/scoring-limits';
import { eceEqualWidth } from '../../../src/core/calibration';
import { eceInference } from '../../../src/core/ece-inference';
import { defaultRng } from '../../../src/core/rng';
import { REPORT_VERSION, type ModelReport, type ReportDocument, type ReportQuestion } from '../../../src/model/report';

/** A document whose rows come from a seeded generator and whose metrics come from the core. */
function doc(): ReportDocument {
  const rng = defaultRng(11);
  const questions: ReportQuestion[] = Array.from({ length: 120 }, (_, i) => {
    const sem1 = 0.2 + 0.8 * rng.random();
    const sem2 = Math.max(0, sem1 - 0.2 * rng.random());
    const correct = rng.random() < sem1 ? 1 : 0;
    const margin = rng.random();
    return {
      id: `q${i}`, question: `question ${i}`, gold: 'g', n: 20, sem1, sem2, verbalized: 0.5 + 0.5 * rng.random(),
      correct, grade: correct ? 'CORRECT' : 'INCORRECT', margin, stdMargin: Math.sqrt(20) * margin,
      regime: margin < 0.1 ? 'jensen' : margin < 0.3 ? 'low-margin' : 'large-margin', entropy: 0, nClasses: 2, modalLabel: 'a',
    };
  });
  const settings: ReportDocument['settings'] = {
    samples: 20, clustering: { method: 'exact' }, grading: { method: 'alias' }, sem2: { R: 10, seed: 0, selection: 'half' },
    bins: 10, bootstrap: { B: 200, seed: 7 },
  };
  const model: ModelReport = {
    model: 'm',
    // Only the signal names and excluded/meanClasses are read from the old metrics.
    metrics: { signals: { sem1: undefined, sem2: undefined, verbalized: undefined }, excluded: 2, meanClasses: 2 } as unknown as ModelReport['metrics'],
    questions,
    excludedQuestions: [],
  };
  model.metrics = recomputeMetrics(model, settings);
  return { format: 'semece-report', version: REPORT_VERSION, title: 't', createdAt: '2026-01-01T00:00:00Z', dataset: { name: 'd', questions: 122 }, settings, models: [model] };
}

describe('applyGradeOverride', () => {
  test('flips one grade, marks it, and recomputes the ECE from the rows', () => {
    const before = doc();
    const target = before.models[0].questions.find((q) => q.correct === 0)!;
    const result = applyGradeOverride(before, 0, target.id, 'CORRECT');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const after = result.value.models[0];
    const row = after.questions.find((q) => q.id === target.id)!;
    expect(row).toMatchObject({ grade: 'CORRECT', correct: 1, overridden: true });
    const y = after.questions.map((q) => q.correct);
    expect(after.metrics.signals.sem1!.ece).toBe(eceEqualWidth(after.questions.map((q) => q.sem1), y));
    expect(after.metrics.signals.sem2!.ece).toBe(eceEqualWidth(after.questions.map((q) => q.sem2), y));
    expect(after.metrics.signals.sem1!.ece).not.toBe(before.models[0].metrics.signals.sem1!.ece);
    expect(after.metrics.accuracy).toBeCloseTo(before.models[0].metrics.accuracy + 1 / 120, 12);
    expect(after.metrics.excluded).toBe(2);
    // The input document is left as it was.
    expect(before.models[0].questions.find((q) => q.id === target.id)!.correct).toBe(0);
  });

  test('the ECE interval, calibration test and bands are recomputed from the new grades (the report\'s one method)', () => {
    const before = doc();
    const target = before.models[0].questions.find((q) => q.correct === 0)!;
    const r = applyGradeOverride(before, 0, target.id, 'CORRECT');
    if (!r.ok) throw new Error(r.error.message);
    const after = r.value.models[0];
    const want = eceInference(after.questions.map((q) => q.sem1), after.questions.map((q) => q.correct), { bins: 10, seed: 7 });
    expect(after.metrics.eceInference!.sem1).toEqual({ interval: want.interval, p: want.p });
    expect(after.metrics.eceInference!.sem1).not.toEqual(before.models[0].metrics.eceInference!.sem1);
    const large = after.questions.filter((q) => q.regime === 'large-margin');
    const regime = eceInference(large.map((q) => q.sem2), large.map((q) => q.correct), { bins: 10, seed: 7 });
    expect(after.metrics.byRegime['large-margin'].eceInference!.sem2).toEqual({ interval: regime.interval, p: regime.p });
    expect(after.metrics.consistencyBands!.sem1).toHaveLength(10);
  });

  test('regime ECEs and counts follow the rows', () => {
    const d = doc();
    const m = d.models[0];
    const total = m.metrics.byRegime.jensen.count + m.metrics.byRegime['low-margin'].count + m.metrics.byRegime['large-margin'].count;
    expect(total).toBe(120);
    const large = m.questions.filter((q) => q.regime === 'large-margin');
    expect(m.metrics.byRegime['large-margin'].ece.sem1).toBe(eceEqualWidth(large.map((q) => q.sem1), large.map((q) => q.correct)));
  });

  test('NOT_ATTEMPTED counts as incorrect', () => {
    const d = doc();
    const target = d.models[0].questions.find((q) => q.correct === 1)!;
    const r = applyGradeOverride(d, 0, target.id, 'NOT_ATTEMPTED');
    expect(r.ok && r.value.models[0].questions.find((q) => q.id === target.id)!.correct).toBe(0);
  });

  test('an unknown model or question is a typed error naming it', () => {
    const d = doc();
    const a = applyGradeOverride(d, 3, 'q1', 'CORRECT');
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.error.message).toContain('model number 4');
    const b = applyGradeOverride(d, 0, 'nope', 'CORRECT');
    expect(b.ok).toBe(false);
    if (!b.ok) expect(b.error.message).toContain('"nope"');
  });
});

describe('a recompute from a document checks its budget before starting', () => {
  /** The fixture's rows repeated to `rows`, scored with the largest B a report may carry. */
  function large(rows: number): ReportDocument {
    const d = doc();
    const m = d.models[0];
    const questions = Array.from({ length: rows }, (_, i) => ({ ...m.questions[i % m.questions.length], id: `q${i}` }));
    return { ...d, settings: { ...d.settings, bootstrap: { B: MAX_BOOTSTRAP_B, seed: 7 } }, models: [{ ...m, questions }] };
  }

  test('a grade override on a report too large to recompute is refused with the sizes, not run', () => {
    const d = large(20_000);
    const target = d.models[0].questions.find((q) => q.correct === 0)!;
    expect(() => applyGradeOverride(d, 0, target.id, 'CORRECT')).toThrow(RecomputeTooLargeError);
    expect(() => recomputeMetrics(d.models[0], d.settings)).toThrow(
      'This report is too large to recompute here: recomputing 20,000 questions × 100,000 bootstrap replicates × 3 signals (10 bins) ' +
        'would take about 6.0e+9 steps; the limit is 2e+9.',
    );
  });

  test('the worker\'s entry refuses the same way, counting the signals it is asked for', () => {
    const rows = large(6_000).models[0].questions;
    const options = { B: MAX_BOOTSTRAP_B, bins: 10 };
    // 3 signals: 1.8e9 steps, within the budget; 4: 2.4e9, over it.
    expect(() => boundedModelMetrics(rows, { excluded: 0, signals: ['sem1', 'sem2', 'verbalized', 'entropyConfidence'] }, options)).toThrow(/6,000 questions × 100,000 bootstrap replicates × 4 signals/);
  });
});
