import { describe, expect, test } from 'vitest';
import { compareDocumentColumns, compareReportSignals, compareSignals } from '../../../src/pipeline/signal-comparison';
import { entropyConfidence, SIGNAL_SHORT, signalColumns, signalValue } from '../../../src/model/signals';
import { eceIntervals } from '../../../src/core/bootstrap';
import { eceEqualWidth } from '../../../src/core/ece';
import type { ReportQuestion, SignalComparison } from '../../../src/model/report';

/** 200 rows, exactly 150 correct, in a fixed scattered order. */
const Y = Float64Array.from({ length: 200 }, (_, i) => ((i * 37) % 200 < 150 ? 1 : 0));

describe('entropy as a confidence', () => {
  test('exp(−H): 1 for agreement, 1/m for an even spread over m classes', () => {
    expect(entropyConfidence(0)).toBe(1);
    expect(entropyConfidence(Math.log(4))).toBeCloseTo(0.25, 15);
    expect(Number.isNaN(entropyConfidence(NaN))).toBe(true);
  });
});

describe('compareSignals', () => {
  test('a calibrated signal beats an overconfident one by a hand-computed margin', () => {
    const calibrated = new Float64Array(200).fill(0.75); // accuracy is 0.75: ECE 0
    const overconfident = new Float64Array(200).fill(1); // ECE |0.75 − 1| = 0.25
    const r = compareSignals({ sem1: overconfident, stated: calibrated }, Y);
    expect(r.rows).toBe(200);
    expect(r.best).toBe('stated');
    expect(r.runnerUp).toBe('sem1');
    expect(r.ece.stated![0]).toBe(0);
    expect(r.byHowMuch![0]).toBeCloseTo(0.25, 15);
    // ECE(1.0) − ECE(0.75) on a resample with accuracy a is (1 − a) − |a − 0.75| > 0 unless a = 1.
    expect(r.byHowMuch![1]).toBeGreaterThan(0);
    expect(r.clearlyBetterThan).toEqual(['sem1']);
  });

  test('ECE intervals are the core bootstrap replicates (same seed, same rows)', () => {
    const a = Float64Array.from(Y, (y, i) => (y ? 0.6 + (i % 5) / 20 : 0.4 + (i % 7) / 20));
    const b = Float64Array.from(Y, (_, i) => 0.5 + (i % 9) / 20);
    const r = compareSignals({ sem1: a, sem2: b }, Y, { B: 200, seed: 7 });
    const core = eceIntervals({ sem1: a, sem2: b }, Y, { B: 200, seed: 7 });
    expect(r.ece.sem1).toEqual(core.sem1);
    expect(r.ece.sem2).toEqual(core.sem2);
    expect(r.ece.sem1![0]).toBe(eceEqualWidth(a, Y));
  });

  test('indistinguishable signals: the difference interval straddles 0 and the test does not reject', () => {
    // 0.75 and 0.77 on every question, 75% right: ECE 0 and 0.02, a gap the 200 answers cannot
    // resolve (the accuracy's standard error is 0.031).
    const a = new Float64Array(200).fill(0.75);
    const b = new Float64Array(200).fill(0.77);
    const r = compareSignals({ sem1: a, sem2: b }, Y);
    expect(r.best).toBe('sem1');
    const iv = r.intervals.sem2!;
    expect(iv[1]).toBeLessThanOrEqual(0);
    expect(iv[2]).toBeGreaterThan(0);
    expect(r.selection!.tests.sem2!.diff).toBeCloseTo(0.02, 12);
    expect(r.selection!.tests.sem2!.p).toBeGreaterThan(0.2);
    expect(r.selection!.named).toBe(false);
    expect(r.clearlyBetterThan).toEqual([]);
  });

  test('the stored rule: k − 1 comparisons, each at 2.5%, the best named only when all reject', () => {
    const calibrated = new Float64Array(200).fill(0.75);
    const r = compareSignals({ sem1: new Float64Array(200).fill(1), stated: calibrated, sem2: new Float64Array(200).fill(0.76) }, Y, { B: 100 });
    const sel = r.selection!;
    expect(sel).toMatchObject({ method: 'fixed-confidence-null-simulation', alpha: 0.05, perComparison: 0.025, comparisons: 2, draws: 1000 });
    expect(r.best).toBe('stated');
    // Sem1 (ECE 0.25) is beaten; Sem2 (0.01 away) is not, so no signal is named.
    expect(sel.tests.sem1!.p).toBeLessThan(0.025);
    expect(sel.tests.sem2!.p).toBeGreaterThan(0.025);
    expect(sel.named).toBe(false);
    expect(r.clearlyBetterThan).toEqual(['sem1']);
    // Seeded: the same call gives the same p-values.
    expect(compareSignals({ sem1: new Float64Array(200).fill(1), stated: calibrated, sem2: new Float64Array(200).fill(0.76) }, Y, { B: 100 }).selection).toEqual(sel);
  });

  test('missing signals are left out with a reason; a signal on most questions restricts the rows to those', () => {
    const full = new Float64Array(200).fill(0.8);
    const none = new Float64Array(200).fill(NaN);
    const few = Float64Array.from(Y, (_, i) => (i < 40 ? 0.9 : NaN));
    const most = Float64Array.from(Y, (_, i) => (i < 180 ? 0.7 : NaN));
    const r = compareSignals({ sem1: full, logprob: none, stated: few, verbalized: most }, Y, { B: 100 });
    expect(r.excluded).toEqual([
      { signal: 'logprob', reason: 'no question has this signal' },
      { signal: 'stated', reason: 'only 40 of 200 questions have this signal' },
    ]);
    expect(r.compared).toEqual(['sem1', 'verbalized']);
    expect(r.rows).toBe(180);
  });

  test('empty input gives no winner, never a crash', () => {
    const r = compareSignals({}, new Float64Array(0));
    expect(r).toMatchObject({ rows: 0, best: null, byHowMuch: null });
  });
});

describe('report columns', () => {
  const q = (i: number, extra: Partial<ReportQuestion> = {}): ReportQuestion => ({
    id: `q${i}`, question: 'Q', gold: 'g', n: 10, sem1: 0.9, sem2: 0.8, verbalized: 0.95, correct: (i % 4 ? 1 : 0) as 0 | 1,
    grade: 'CORRECT', margin: 0.8, stdMargin: 2, regime: 'large-margin', entropy: Math.log(2), nClasses: 2, modalLabel: 'A', ...extra,
  });
  test('fixed fields, signals and the entropy mapping become columns', () => {
    const qs = [q(1, { signals: { stated: 0.7 } }), q(2), q(3, { signals: { entropyConfidence: 0.4 } })];
    expect(signalValue(qs[0], 'stated')).toBe(0.7);
    expect(Number.isNaN(signalValue(qs[1], 'stated'))).toBe(true);
    expect(signalValue(qs[1], 'entropyConfidence')).toBeCloseTo(0.5, 15);
    expect(signalValue(qs[2], 'entropyConfidence')).toBe(0.4);
    const cols = signalColumns(qs);
    expect(Object.keys(cols)).toEqual(['sem1', 'sem2', 'verbalized', 'stated', 'entropyConfidence']);
  });
  test('compareReportSignals uses every column of the report', () => {
    const qs = Array.from({ length: 60 }, (_, i) => q(i, { signals: { stated: 0.75 } }));
    const r = compareReportSignals({ questions: qs }, { B: 100 });
    expect(r.best).toBe('stated'); // accuracy is 0.75 exactly: stated 0.75 has ECE 0
    expect(r.compared).toContain('entropyConfidence');
  });
  test('compareReportSignals checks the budget of a report\'s rows and B before it starts', () => {
    const qs = Array.from({ length: 60 }, (_, i) => q(i, { signals: { stated: 0.75 } }));
    expect(() => compareReportSignals({ questions: qs }, { B: 1e8 })).toThrow(
      /^This report is too large to compare its signals here: recomputing 60 questions × 100,000,000 bootstrap replicates × 5 signals \(10 bins\)/,
    );
  });
  test('compareDocumentColumns (the recompute worker\'s, over packed columns) is compareReportSignals to the bit, budget included', () => {
    const qs = Array.from({ length: 80 }, (_, i) => q(i, { sem1: (i % 7) / 7, signals: { stated: (i % 5) / 5 } }));
    const correct = Uint8Array.from(qs, (x) => x.correct);
    expect(compareDocumentColumns(signalColumns(qs), correct, { B: 200, seed: 3 })).toEqual(compareReportSignals({ questions: qs }, { B: 200, seed: 3 }));
    expect(() => compareDocumentColumns(signalColumns(qs), correct, { B: 1e8 })).toThrow(/^This report is too large to compare its signals here: recomputing 80 questions/);
  });
});

describe('summarizeComparison', () => {
  test('headline names the best signal and the margin; rows carry verdicts', async () => {
    const { summarizeComparison } = await import('../../../src/pipeline/signal-comparison-summary');
    const label = { ...SIGNAL_SHORT, logprob: 'Logprob' };
    const r = compareSignals({ sem1: new Float64Array(200).fill(1), stated: new Float64Array(200).fill(0.75), logprob: new Float64Array(200).fill(NaN) }, Y, { B: 200 });
    const s = summarizeComparison(r, label);
    expect(s.headline).toMatch(/^Stated is best calibrated on these 200 questions \(ECE 0\.000 /);
    expect(s.headline).toContain('Next is Sem1, 0.250 higher');
    expect(s.headline).not.toContain('cannot tell');
    expect(s.rows.map((x) => [x.signal, x.verdict])).toEqual([['stated', 'best'], ['sem1', 'worse']]);
    expect(s.notes).toEqual(['Logprob: not compared (no question has this signal).']);
    expect(summarizeComparison(compareSignals({}, new Float64Array(0)), label).headline).toMatch(/No signal/);
  });
});

describe('naming the best signal', () => {
  const label = { ...SIGNAL_SHORT, logprob: 'Logprob' };
  /** A stored comparison of three signals with the given p-values against the lowest (stated). */
  const stored = (pSem1: number, pSem2: number): SignalComparison => {
    const named = pSem1 < 0.025 && pSem2 < 0.025;
    return {
      rows: 100, compared: ['stated', 'sem1', 'sem2'], excluded: [],
      ece: { stated: [0.02, 0.01, 0.05], sem1: [0.1, 0.07, 0.14], sem2: [0.06, 0.03, 0.1] },
      best: 'stated', runnerUp: 'sem2', byHowMuch: [0.04, -0.01, 0.09],
      intervals: { sem1: [0.08, 0.03, 0.13], sem2: [0.04, -0.01, 0.09] },
      clearlyBetterThan: (['sem1', 'sem2'] as const).filter((s) => (s === 'sem1' ? pSem1 : pSem2) < 0.025),
      B: 1000, seed: 7,
      selection: {
        method: 'fixed-confidence-null-simulation', alpha: 0.05, perComparison: 0.025, comparisons: 2, draws: 1000,
        tests: { sem1: { diff: 0.08, p: pSem1 }, sem2: { diff: 0.04, p: pSem2 } }, named,
      },
    };
  };

  test('intersection–union rule: named when every one of the k − 1 tests rejects, not when one does not', async () => {
    const { summarizeComparison } = await import('../../../src/pipeline/signal-comparison-summary');
    const yes = summarizeComparison(stored(0.001, 0.02), label);
    expect(yes.headline).toMatch(/^Stated is best calibrated on these 100 questions \(ECE 0\.020 \[0\.010, 0\.050\]\): it beats each of the 2 other signals \(every p < 0\.025\)\./);
    expect(yes.rows.map((r) => [r.signal, r.verdict, r.p])).toEqual([['stated', 'best', undefined], ['sem2', 'worse', 0.02], ['sem1', 'worse', 0.001]]);
    expect(yes.rule).toMatch(/^Named best only when it beats every other signal: 2 one-sided tests .* each at 2\.5%, all of which must reject \(an intersection–union test/);
    // The runner-up's bootstrap interval includes 0, yet the test of Sem2 rejects: the stored rule decides.
    // One test short of all: not named, though Sem1 is beaten.
    const no = summarizeComparison(stored(0.001, 0.03), label);
    expect(no.headline).toBe('No signal is named best calibrated on these 100 questions: Stated has the lowest ECE (0.020 [0.010, 0.050]), but it does not beat this signal beyond chance: Sem2 (p = 0.030).');
    expect(no.rows.map((r) => r.verdict)).toEqual(['lowest', 'indistinguishable', 'worse']);
  });

  test('a report saved before the rule: named when the runner-up\'s paired interval excludes 0, as it was', async () => {
    const { summarizeComparison } = await import('../../../src/pipeline/signal-comparison-summary');
    const old = { ...stored(0.001, 0.001), clearlyBetterThan: ['sem1'] as SignalComparison['clearlyBetterThan'] };
    delete old.selection;
    const s = summarizeComparison(old, label);
    expect(s.rule).toBe('');
    expect(s.headline).toMatch(/^No signal is distinguishably better calibrated on these 100 questions: .*, an interval that includes 0\.$/);
    expect(s.rows[0].verdict).toBe('lowest');
    expect(s.rows.find((r) => r.signal === 'sem2')!.verdict).toBe('indistinguishable');
  });

  test('two signals a hair apart on four questions: not named', async () => {
    const { summarizeComparison } = await import('../../../src/pipeline/signal-comparison-summary');
    const Y4 = new Float64Array([1, 0, 1, 0]);
    const r = compareSignals({ sem1: new Float64Array([0.6, 0.4, 0.6, 0.4]), stated: new Float64Array([0.62, 0.41, 0.6, 0.39]) }, Y4, { B: 200 });
    expect(r.clearlyBetterThan).toEqual([]);
    const s = summarizeComparison(r, label);
    expect(s.headline).toMatch(/^No signal is named best calibrated on these 4 questions: .* has the lowest ECE .*p = /);
    expect(s.headline).not.toMatch(/is best calibrated/);
    expect(s.rows[0].verdict).toBe('lowest');
    expect(s.rows[1].verdict).toBe('indistinguishable');
  });
});
