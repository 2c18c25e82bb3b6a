import { describe, expect, test } from 'vitest';
import { reportSettings } from '../../../src/pipeline/run-settings';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { scoreAuthorsRows } from '../../../src/pipeline/score-stage';
import { RAW_REPLIES_LIMIT, SAMPLE_DETAIL_LIMIT, reportDetail } from '../../../src/pipeline/report-detail';
import { SCORING_DEFAULTS, type RunSpec, type ScoringSpec } from '../../../src/model/run-spec';
import type { ClusteredRow, GradedRow } from '../../../src/model/rows';
import type { ScoreInput } from '../../../src/pipeline/stage-ports';

const spec = (scoring?: ScoringSpec): RunSpec => ({
  title: 't',
  dataset: { name: 'd', source: 'test', questions: [] },
  models: [{ kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }],
  sampling: { n: 6, temperature: 1, maxTokens: 32, prompt: '{question}', concurrency: 1 },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
  ...(scoring ? { scoring } : {}),
});

/** 40 questions of 6 samples over 3 classes, every third one wrong. */
function input(settings: ScoreInput['settings']): ScoreInput {
  const clustered: ClusteredRow[] = [];
  const graded: GradedRow[] = [];
  for (let i = 0; i < 40; i++) {
    const a = [0, 0, i % 2, 1, (i % 3) as number, 0];
    const sizes = [0, 1, 2].map((k) => a.filter((x) => x === k).length);
    const modal = sizes.indexOf(Math.max(...sizes));
    clustered.push({
      id: `q${i}`, question: `Q${i}`, gold_answer: 'x', model: 'm', n_samples: 6, results: a.map(() => 'r'), answer_extracted: a.map(String),
      confidence_verbalized: a.map((k) => (k ? 0.5 : null)), n_clusters: 3, cluster_labels: ['0', '1', '2'], cluster_assignments: a,
      cluster_sizes: sizes, modal_cluster: modal, modal_cluster_label: String(modal),
    });
    graded.push({ id: `q${i}`, model: 'm', question: `Q${i}`, gold_answer: 'x', modal_cluster_label: String(modal), grade: i % 3 ? 'CORRECT' : 'INCORRECT', Y: i % 3 ? 1 : 0 });
  }
  return { title: 't', dataset: { name: 'd', questions: 40 }, settings, models: [{ model: 'm', provider: 'openai', clustered, graded, excluded: [], overridden: [] }] };
}

describe('scoring settings from the run spec to the report', () => {
  test('a spec without scoring settings records the defaults', () => {
    const s = reportSettings(spec());
    expect({ sem2: s.sem2, bins: s.bins, bootstrap: s.bootstrap }).toEqual(SCORING_DEFAULTS);
  });

  test("the spec's settings reach the scorer, and the report records them", () => {
    const scoring: ScoringSpec = { sem2: { R: 3, seed: 5, selection: 2 }, bins: 5, bootstrap: { B: 60, seed: 11 } };
    const doc = scoreRun(input(reportSettings(spec(scoring))), { samples: 'none', smooth: false });
    expect({ sem2: doc.settings.sem2, bins: doc.settings.bins, bootstrap: doc.settings.bootstrap }).toEqual(scoring);
    const m = doc.models[0];
    expect(m.metrics.bootstrap).toMatchObject({ B: 60, seed: 11 });
    expect(m.metrics.signals.sem1!.bins).toHaveLength(5);
    const { clustered, graded } = input(doc.settings).models[0];
    const direct = scoreAuthorsRows(
      { questions: clustered.map((c, i) => ({ clustered: c, graded: { ...graded[i], Y: graded[i].Y! }, clusteredLine: i + 1, gradedLine: i + 1 })), excluded: [], duplicates: [], unmatchedGraded: [] },
      { R: 3, sem2Seed: 5, sem2Selection: 2, bins: 5, B: 60, bootstrapSeed: 11, samples: 'none', smooth: false },
    );
    expect(m.questions.map((q) => q.sem2)).toEqual(direct.questions.map((q) => q.sem2));
    expect(m.metrics).toEqual(direct.metrics);
  });

  test('options that override the spec (a small B in tests) are what the report records', () => {
    const doc = scoreRun(input(reportSettings(spec())), { samples: 'none', B: 50, smooth: false });
    expect(doc.settings.bootstrap).toEqual({ B: 50, seed: 7 });
    expect(doc.models[0].metrics.bootstrap.B).toBe(50);
    expect(doc.models[0].metrics.comparison!.B).toBe(50);
  });

  test("Sem2's selection size changes Sem2 only", () => {
    const half = scoreRun(input(reportSettings(spec())), { samples: 'none', B: 50, smooth: false }).models[0];
    const two = scoreRun(input(reportSettings(spec({ ...SCORING_DEFAULTS, sem2: { R: 10, seed: 0, selection: 2 } }))), { samples: 'none', B: 50, smooth: false }).models[0];
    expect(two.questions.map((q) => q.sem1)).toEqual(half.questions.map((q) => q.sem1));
    expect(two.questions.map((q) => q.sem2)).not.toEqual(half.questions.map((q) => q.sem2));
  });
});

/** `count` questions of `n` samples each, answers alternating over two classes (class 0 the larger), raw replies kept unless `raw` is false. */
function sized(count: number, n: number, raw = true): ScoreInput {
  const clustered: ClusteredRow[] = [];
  const graded: GradedRow[] = [];
  for (let i = 0; i < count; i++) {
    const a = Array.from({ length: n }, (_, j) => (j % 3 === 2 ? 1 : 0));
    const sizes = [a.filter((x) => x === 0).length, a.filter((x) => x === 1).length];
    clustered.push({
      id: `q${i}`, question: `Q${i}`, gold_answer: 'x', model: 'm', n_samples: n, results: raw ? a.map((k) => `Answer: ${k}`) : [], answer_extracted: a.map(String),
      confidence_verbalized: a.map(() => 0.7), n_clusters: 2, cluster_labels: ['0', '1'], cluster_assignments: a,
      cluster_sizes: sizes, modal_cluster: 0, modal_cluster_label: '0',
    });
    graded.push({ id: `q${i}`, model: 'm', question: `Q${i}`, gold_answer: 'x', modal_cluster_label: '0', grade: i % 2 ? 'CORRECT' : 'INCORRECT', Y: i % 2 ? 1 : 0 });
  }
  return { title: 't', dataset: { name: 'd', questions: count }, settings: reportSettings(spec()), models: [{ model: 'm', provider: 'openai', clustered, graded, excluded: [], overridden: [] }] };
}

describe('how much of each sample a run report keeps (report-detail.ts)', () => {
  test('the levels switch just above each limit, with a note naming what is left out', () => {
    expect(reportDetail(RAW_REPLIES_LIMIT)).toEqual({ detail: 'raw', note: null });
    expect(reportDetail(RAW_REPLIES_LIMIT + 1).detail).toBe('answers');
    expect(reportDetail(RAW_REPLIES_LIMIT + 1).note).toMatch(/raw replies are not kept/);
    expect(reportDetail(SAMPLE_DETAIL_LIMIT).detail).toBe('answers');
    expect(reportDetail(SAMPLE_DETAIL_LIMIT + 1).detail).toBe('none');
    expect(reportDetail(SAMPLE_DETAIL_LIMIT + 1).note).toMatch(/keeps each question's classes/);
  });

  test('a report over more than SAMPLE_DETAIL_LIMIT samples keeps classes, not samples, and the same numbers', () => {
    const n = SAMPLE_DETAIL_LIMIT / 4 + 1;
    const rows = sized(4, n);
    const big = scoreRun(rows, { samples: 'raw', B: 20, smooth: false }).models[0];
    expect(big.questions.every((q) => q.samples === undefined)).toBe(true);
    expect(big.questions[0].classes).toEqual([{ label: '0', size: Math.ceil((2 * n) / 3) }, { label: '1', size: n - Math.ceil((2 * n) / 3) }]);
    const whole = scoreAuthorsRows(
      { questions: rows.models[0].clustered.map((c, i) => ({ clustered: c, graded: { ...rows.models[0].graded[i], Y: (i % 2) as 0 | 1 }, clusteredLine: i + 1, gradedLine: i + 1 })), excluded: [], duplicates: [], unmatchedGraded: [] },
      { samples: 'answers', B: 20, smooth: false },
    );
    expect(whole.questions[0].samples).toHaveLength(n);
    expect(big.metrics).toEqual(whole.metrics);
  });

  test('between the limits it keeps answers without raw replies; under them, raw replies too, unless the rows carry none', () => {
    const answers = scoreRun(sized(2, RAW_REPLIES_LIMIT / 2 + 1), { samples: 'raw', B: 20, smooth: false }).models[0];
    expect(answers.questions[0].samples?.[2]).toEqual({ answer: '1', confidence: 0.7, cls: 1 });
    const raw = scoreRun(sized(2, 30), { samples: 'raw', B: 20, smooth: false }).models[0];
    expect(raw.questions[0].samples?.[2]).toEqual({ answer: '1', confidence: 0.7, cls: 1, raw: 'Answer: 1' });
    // A partial report of a large run scores few rows, whose raw replies the sample stage left out.
    const partial = scoreRun(sized(2, 30, false), { samples: 'raw', B: 20, smooth: false }).models[0];
    expect(partial.questions[0].samples?.[2]).toEqual({ answer: '1', confidence: 0.7, cls: 1 });
    // A caller asking for less gets less.
    expect(scoreRun(sized(2, 30), { samples: 'none', B: 20, smooth: false }).models[0].questions[0].samples).toBeUndefined();
  });
});
