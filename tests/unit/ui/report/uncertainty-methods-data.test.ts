import { describe, expect, it } from 'vitest';
import type { ModelReport, ReportQuestion } from '../../../../src/model/report';
import { modelMetrics } from '../../../../src/pipeline/score-stage';
import { hasUncertaintyMethods, uncertaintyMethodsTables } from '../../../../src/ui/report/uncertainty-methods-data';

/** Twelve questions: Sem2 carries the confidences, semantic entropy's confidence form a coarser copy of them. */
const conf = [0.9, 0.3, 0.9, 0.7, 0.8, 0.6, 0.6, 0.8, 0.5, 0.95, 0.6, 0.4];
const y = [1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0];
const questions: ReportQuestion[] = conf.map((c, i) => ({
  id: `q${i}`, question: `Q${i}`, gold: 'g', n: 10, sem1: 1 - c / 2, sem2: c, verbalized: 0.9,
  correct: y[i] as 0 | 1, grade: y[i] ? 'CORRECT' : 'INCORRECT',
  margin: 0.2, stdMargin: 0.6, regime: 'low-margin', entropy: 0.5, nClasses: 2, modalLabel: 'a',
  signals: { semantic_entropy: Math.round(c * 4) / 4 },
}));
const metrics = modelMetrics(questions, { excluded: 0, signals: ['sem1', 'sem2', 'verbalized', 'semantic_entropy'] }, { B: 20, smooth: false, bootstrapSeed: 3 });
const model: ModelReport = { model: 'm', metrics, questions, excludedQuestions: [] };

describe("the uncertainty methods view's data", () => {
  it('has a row per scored signal, in the shared order, with the numbers the document holds', () => {
    const [t] = uncertaintyMethodsTables([model]);
    expect(t.model).toBe('m');
    expect(t.seed).toBe(metrics.recalibration!.seed);
    expect(t.method).toBe(metrics.recalibration!.method);
    expect(t.rows.map((r) => r.signal)).toEqual(['sem1', 'sem2', 'verbalized', 'semantic_entropy']);
    for (const r of t.rows) {
      expect(r.isotonic).toEqual(metrics.recalibration!.isotonic[r.signal]);
      expect(r.platt).toEqual(metrics.recalibration!.platt[r.signal]);
      expect(r.isotonic).not.toBeNull();
      expect(r.auroc).toBe(metrics.signals[r.signal]!.auroc);
      expect(r.prr).toBe(metrics.rejection![r.signal]!.prr);
      expect(r.auarc).toBe(metrics.rejection![r.signal]!.auarc);
    }
  });

  it('shows a raw ECE only for a probability: a confidence form of an uncertainty score has none', () => {
    const [t] = uncertaintyMethodsTables([model]);
    const sem2 = t.rows.find((r) => r.signal === 'sem2')!;
    expect(sem2.probability).toBe(true);
    expect(sem2.raw).toEqual({ ece: metrics.signals.sem2!.ece, interval: metrics.eceInference!.sem2!.interval });
    const se = t.rows.find((r) => r.signal === 'semantic_entropy')!;
    expect(se.probability).toBe(false);
    expect(se.raw).toBeNull();
  });

  it('offers nothing for a report made before recalibration and PRR were stored', () => {
    const older: ModelReport = { ...model, metrics: { ...metrics, recalibration: undefined, rejection: undefined } };
    expect(hasUncertaintyMethods([older])).toBe(false);
    expect(uncertaintyMethodsTables([older])).toEqual([]);
    expect(hasUncertaintyMethods([older, model])).toBe(true);
    expect(uncertaintyMethodsTables([older, model]).map((t) => t.model)).toEqual(['m']);
  });
});
