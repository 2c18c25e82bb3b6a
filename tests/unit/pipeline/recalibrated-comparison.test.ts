import { describe, expect, it } from 'vitest';
import { heldOutSplit } from '../../../src/core/abstention';
import { crossFittedRecalibration } from '../../../src/core/recalibration';
import type { ModelReport, ReportQuestion } from '../../../src/model/report';
import type { SignalName } from '../../../src/model/signals';
import { parseReport as parseReportDocument } from '../../../src/formats/report-import';
import { modelMetrics } from '../../../src/pipeline/score-stage';
import { compareRecalibratedSignals, compareSignals, NOT_A_PROBABILITY, NOT_RECALIBRATED } from '../../../src/pipeline/signal-comparison';
import { recalibratedComparisonText } from '../../../src/ui/report/recalibrated-comparison-text';
import { sampleReport } from '../share/report-fixture';

/**
 * A constructed report of 300 questions whose correctness is decided by a confidence v (correct iff
 * v > 0.5). Semantic entropy's confidence form (not a probability) is v itself: after a monotone
 * map it separates the outcomes exactly. Sem1, Sem2 and the stated confidence are v on the half
 * of the questions the maps' split fits on first and 1 − v on the other, so a map fitted on one
 * half is turned the wrong way round on the other: whatever isotonic map is fitted, they stay
 * far from calibrated. `tie` adds NumSets as an exact copy of semantic entropy.
 */
const N = 300;
const SEED = 11;
function report(tie: boolean): ModelReport {
  const { selection } = heldOutSplit(N, SEED);
  const inA = new Uint8Array(N);
  for (const i of selection) inA[i] = 1;
  const questions: ReportQuestion[] = Array.from({ length: N }, (_, i) => {
    const v = 0.02 + (0.96 * ((i * 37) % N)) / N;
    const u = inA[i] ? v : 1 - v;
    const correct = v > 0.5 ? 1 : 0;
    return {
      id: `q${i}`, question: `Q${i}`, gold: 'g', n: 10, sem1: u, sem2: u, verbalized: u,
      correct, grade: correct ? 'CORRECT' : 'INCORRECT',
      margin: 0.2, stdMargin: 0.6, regime: 'low-margin', entropy: 0.5, nClasses: 2, modalLabel: 'a',
      signals: tie ? { semantic_entropy: v, num_sets: v } : { semantic_entropy: v },
    };
  });
  const signals: SignalName[] = ['sem1', 'sem2', 'verbalized', 'semantic_entropy', ...(tie ? (['num_sets'] as const) : [])];
  const metrics = modelMetrics(questions, { excluded: 0, signals }, { B: 200, smooth: false, bootstrapSeed: SEED, regimeIntervals: false });
  return { model: tie ? 'tied' : 'clear', metrics, questions, excludedQuestions: [] };
}

describe('the signal comparison after recalibration', () => {
  const clear = report(false);
  const tied = report(true);

  it('names a signal that is not a probability when, after the isotonic map, it beats every other', () => {
    const c = clear.metrics.recalibratedComparison!;
    // The raw comparison leaves it out; after the map it is compared like the rest.
    expect(clear.metrics.comparison!.excluded).toContainEqual({ signal: 'semantic_entropy', reason: NOT_A_PROBABILITY });
    expect(c.compared).toEqual(['sem1', 'sem2', 'verbalized', 'semantic_entropy']);
    expect(c.excluded).toEqual([]);
    expect(c.best).toBe('semantic_entropy');
    expect(c.selection!.comparisons).toBe(3);
    expect(c.selection!.named).toBe(true);
    // Same rule and settings as the raw comparison.
    expect([c.B, c.seed, c.selection!.perComparison, c.selection!.method]).toEqual([200, SEED, 0.025, clear.metrics.comparison!.selection!.method]);
    // Its ECE point is the table's recalibrated ECE: the same cross-fitted confidences, not a second fit.
    expect(c.ece.semantic_entropy![0]).toBeCloseTo(clear.metrics.recalibration!.isotonic.semantic_entropy!.ece, 12);
    expect(c.ece.sem1![0]).toBeGreaterThan(0.3);
    const t = recalibratedComparisonText(clear)!;
    expect(t.named).toBe('semantic_entropy');
    expect(t.text).toMatch(/^Semantic entropy is best calibrated after the cross-fitted isotonic map on these 300 questions \(ECE 0\.\d{3} \[.*\]\): it beats each of the 3 other signals \(every p < 0\.025\)\. Next is .*, 0\.\d{3} higher \[/);
  });

  it('names none when two signals tie after the map, and gives the runner-up gap with its interval', () => {
    const c = tied.metrics.recalibratedComparison!;
    expect(c.compared).toContain('num_sets');
    expect(['semantic_entropy', 'num_sets']).toContain(c.best);
    expect(['semantic_entropy', 'num_sets']).toContain(c.runnerUp);
    expect(c.selection!.named).toBe(false);
    expect(c.byHowMuch![0]).toBe(0);
    const t = recalibratedComparisonText(tied)!;
    expect(t.named).toBeNull();
    expect(t.text).toMatch(/^No signal is named best calibrated after the cross-fitted isotonic map on these 300 questions: /);
    expect(t.text).toContain('A signal is named only when all 4 one-sided tests against it reject, each at 2.5%.');
    expect(t.text).toMatch(/The runner-up, (Semantic entropy|Number of semantic sets), is 0\.000 higher \[0\.000, 0\.000\] \(paired bootstrap\)\.$/);
  });

  it('compares exactly what compareSignals compares on the cross-fitted isotonic confidences', () => {
    const y = Float64Array.from(clear.questions, (q) => q.correct);
    const cols = {
      sem1: crossFittedRecalibration(Float64Array.from(clear.questions, (q) => q.sem1), y, { method: 'isotonic', seed: SEED }).confidence,
      semantic_entropy: crossFittedRecalibration(Float64Array.from(clear.questions, (q) => q.signals!.semantic_entropy!), y, { method: 'isotonic', seed: SEED }).confidence,
    };
    const a = compareRecalibratedSignals(cols, y, { B: 50, seed: SEED });
    // Raw compareSignals would leave semantic entropy out for not being a probability.
    expect(compareSignals(cols, y, { B: 50, seed: SEED }).compared).toEqual(['sem1']);
    expect(a.compared).toEqual(['sem1', 'semantic_entropy']);
    // Its replicates come from the paired bootstrap's fused kernel: the same numbers as compareSignals's own loop.
    expect(a).toEqual(compareSignals(cols, y, { B: 50, seed: SEED, probabilitiesOnly: false }));
    // A signal missing on one question has no recalibrated confidence anywhere: left out, and said why.
    const gap = Float64Array.from(clear.questions, (q, i) => (i === 5 ? NaN : q.signals!.semantic_entropy!));
    const missing = crossFittedRecalibration(gap, y, { method: 'isotonic', seed: SEED }).confidence;
    const b = compareRecalibratedSignals({ ...cols, num_sets: missing }, y, { B: 50, seed: SEED });
    expect(b.excluded).toEqual([{ signal: 'num_sets', reason: NOT_RECALIBRATED }]);
    expect({ ...b, excluded: [] }).toEqual(a);
  });

  it('is not computed without the view extras (semece score without --report)', () => {
    const m = modelMetrics(clear.questions, { excluded: 0, signals: ['sem1', 'semantic_entropy'] }, { B: 20, smooth: false, viewExtras: false, regimeIntervals: false });
    expect(m.recalibratedComparison).toBeUndefined();
    expect(m.recalibration).toBeDefined();
  });

  it('a report document with the field is accepted, and one without it opens unchanged', () => {
    const doc = sampleReport({ questions: 6 });
    const old = parseReportDocument(JSON.parse(JSON.stringify(doc)));
    expect(old.ok).toBe(true);
    if (old.ok) expect(old.value.models[0].metrics.recalibratedComparison).toBeUndefined();
    const withIt = structuredClone(doc);
    withIt.models[0].metrics.recalibratedComparison = clear.metrics.recalibratedComparison;
    const parsed = parseReportDocument(JSON.parse(JSON.stringify(withIt)));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.value.models[0].metrics.recalibratedComparison).toEqual(clear.metrics.recalibratedComparison);
    const bad = structuredClone(withIt);
    (bad.models[0].metrics.recalibratedComparison as { best: string }).best = 'no_such_signal';
    expect(parseReportDocument(JSON.parse(JSON.stringify(bad))).ok).toBe(false);
    expect(recalibratedComparisonText(doc.models[0])).toBeNull();
  });
});
