import { describe, expect, test } from 'vitest';
import { compareReportSignals } from '../../../../src/pipeline/signal-comparison';
import { modelMetrics, scoredSignals } from '../../../../src/pipeline/score-stage';
import { entropyConfidence } from '../../../../src/model/signals';
import type { ModelReport } from '../../../../src/model/report';
import { DEFAULT_QUERY, queryRows, signalColumnsOf } from '../../../../src/ui/report/question-table-data';
import { demoDocument } from '../../../e2e/report-fixture';

const doc = demoDocument();
/** The black-box signals (issue 29) every scored report now carries after entropy confidence. */
const BLACK_BOX = ['semantic_entropy', 'num_sets', 'eigv', 'degree', 'eccentricity', 'lexical_similarity'];

describe('entropy confidence in every report', () => {
  test('the demo report scores entropy confidence exp(−H) beside the paper signals', () => {
    for (const m of doc.models) {
      expect(Object.keys(m.metrics.signals)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence', ...BLACK_BOX]);
      for (const q of m.questions) expect(q.signals?.entropyConfidence).toBe(entropyConfidence(q.entropy));
      expect(Number.isFinite(m.metrics.signals.entropyConfidence!.ece)).toBe(true);
      expect(m.metrics.eceIntervals.entropyConfidence).toHaveLength(3);
    }
  });

  test('scoring every signal never drops a paper signal, and leaves empty reports with the paper signals only', () => {
    const m = doc.models[0];
    const plain: ModelReport = { ...m, questions: m.questions.map(({ signals: _s, ...q }) => q) };
    // A verbalized confidence missing on one question: it is still scored (NaN where undefined), never dropped.
    const gap: ModelReport = { ...plain, questions: plain.questions.map((q, i) => (i === 0 ? { ...q, verbalized: NaN } : q)) };
    expect(scoredSignals(gap.questions)).toContain('verbalized');
    expect(modelMetrics(gap.questions, { excluded: 0, signals: scoredSignals(gap.questions) }, { B: 20 }).signals.verbalized).toBeDefined();
    expect(scoredSignals([])).toEqual(['sem1', 'sem2', 'verbalized']);
    expect(scoredSignals(m.questions)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence', ...BLACK_BOX]);
  });
});

describe('signal comparison for the report view', () => {
  test('stored in the document: exactly compareReportSignals with the document bootstrap settings', () => {
    const m = doc.models[1];
    const options = { B: doc.settings.bootstrap.B, seed: doc.settings.bootstrap.seed, bins: doc.settings.bins };
    expect(m.metrics.comparison).toEqual(compareReportSignals(m, options));
    expect(m.metrics.comparison!.compared).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence']);
    expect(m.metrics.comparison!.B).toBe(doc.settings.bootstrap.B);
  });
});

describe('question table signal columns', () => {
  const base = doc.models[0];
  const partial: ModelReport = {
    ...base,
    questions: base.questions.map((q, i) => ({ ...q, signals: { ...q.signals, ...(i % 3 === 0 ? { logprob: i / base.questions.length } : {}) } })),
  };

  test('paper signals always, then scored signals, then signals only some rows carry, in the shared order', () => {
    expect(signalColumnsOf(base)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence', ...BLACK_BOX]);
    expect(signalColumnsOf(partial)).toEqual(['sem1', 'sem2', 'verbalized', 'logprob', 'entropyConfidence', ...BLACK_BOX]);
    const bare = { metrics: { signals: {} }, questions: [] };
    expect(signalColumnsOf(bare)).toEqual(['sem1', 'sem2', 'verbalized']);
  });

  test('sorting by an extra signal orders by its value, questions without it last in both directions', () => {
    const up = queryRows(partial.questions, { ...DEFAULT_QUERY, sort: 'logprob' });
    const withIt = partial.questions.filter((q) => q.signals?.logprob !== undefined).length;
    const values = up.slice(0, withIt).map((q) => q.signals!.logprob!);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(up.slice(withIt).every((q) => q.signals?.logprob === undefined)).toBe(true);
    const down = queryRows(partial.questions, { ...DEFAULT_QUERY, sort: 'logprob', descending: true });
    expect(down[0].signals!.logprob).toBe(Math.max(...values));
    expect(down.slice(withIt).every((q) => q.signals?.logprob === undefined)).toBe(true);
    const ent = queryRows(base.questions, { ...DEFAULT_QUERY, sort: 'entropyConfidence' }).map((q) => q.signals!.entropyConfidence!);
    expect(ent).toEqual([...ent].sort((a, b) => a - b));
  });
});
