import { describe, expect, it } from 'vitest';
import { readAuthorsRows } from '../../../../src/formats/authors-rows';
import { scoreAuthorsRows } from '../../../../src/pipeline/score-stage';
import { buildReport, importedSettings } from '../../../../src/pipeline/score-documents';
import { DEMO_QUESTIONS } from '../../../../src/demo/questions';
import { sem2HeldOut } from '../../../../src/core/estimators';
import { TINY_TOPICS } from '../../../../scripts/tiny-causal-lm-table';
import { TINY_CAUSAL_MODEL } from '../../../../src/providers/in-browser/models';
import { TINY_NLI_MODEL } from '../../../../src/clustering/nli-models';
import {
  LIVE_DEFAULTS,
  LIVE_QUESTION_IDS,
  liveCaption,
  liveResult,
  liveRunSpec,
  liveSettingsProblems,
} from '../../../../src/ui/classroom/live-classroom';

/** The settings a class without a network can use: both models shipped with the app. */
const LIVE_SHIPPED = { model: TINY_CAUSAL_MODEL, nliModel: TINY_NLI_MODEL };

describe('live classroom run', () => {
  it('samples the in-browser model on the first built-in questions, clusters in the page, grades by alias, scores as the paper', () => {
    const spec = liveRunSpec({ ...LIVE_DEFAULTS, questions: 3, n: 12 });
    expect(spec.models).toEqual([{ kind: 'in-browser', preset: 'in-browser', baseUrl: '', model: LIVE_DEFAULTS.model, concurrency: 1 }]);
    expect(spec.dataset.questions.map((q) => q.id)).toEqual(LIVE_QUESTION_IDS.slice(0, 3));
    const hexagon = spec.dataset.questions.find((q) => q.id === 'demo-04')!;
    const demo = DEMO_QUESTIONS.find((q) => q.id === 'demo-04')!;
    expect(hexagon).toMatchObject({ question: demo.question, answer: demo.answer, aliases: demo.aliases });
    expect(spec.sampling.n).toBe(12);
    // A hub NLI model may be downloaded; the shipped one is never looked for on the hub.
    expect(spec.clustering).toEqual({ method: 'entailment', model: LIVE_DEFAULTS.nliModel, allowRemote: true });
    expect(liveRunSpec({ ...LIVE_DEFAULTS, ...LIVE_SHIPPED }).clustering).toEqual({ method: 'entailment', model: 'tiny-nli' });
    expect(liveRunSpec({ ...LIVE_DEFAULTS, clustering: 'exact' }).clustering).toEqual({ method: 'exact' });
    expect(spec.grading).toEqual({ method: 'alias' });
  });

  it('begins with the questions the shipped tiny model knows, so a run on it answers them from its table', () => {
    expect(LIVE_QUESTION_IDS.slice(0, 4)).toEqual(TINY_TOPICS.filter((t) => t.questionId.startsWith('demo-')).map((t) => t.questionId));
    for (const id of LIVE_QUESTION_IDS) expect(DEMO_QUESTIONS.some((q) => q.id === id), id).toBe(true);
  });

  it('names each bad setting', () => {
    expect(liveSettingsProblems(LIVE_DEFAULTS)).toEqual([]);
    expect(liveSettingsProblems({ ...LIVE_DEFAULTS, n: 2, questions: 99, model: ' ' })).toEqual([
      'Choose a model to sample.',
      'Samples per question must be a whole number from 4 to 50.',
      `Questions must be a whole number from 2 to ${LIVE_QUESTION_IDS.length}.`,
    ]);
    expect(liveSettingsProblems({ ...LIVE_DEFAULTS, n: 10.5 })).toHaveLength(1);
  });
});

/** A scored report of two questions whose samples split (as a real model's would), from the authors' row format. */
function scoredReport() {
  const rows = [
    { id: 'a', question: 'Which river flows through Baghdad?', gold: 'Tigris', labels: ['Tigris', 'Euphrates'], assign: [0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0], y: 1 },
    { id: 'b', question: 'Capital of Turkey?', gold: 'Ankara', labels: ['Istanbul', 'Ankara', 'Izmir'], assign: [0, 0, 1, 0, 2, 1, 0, 0, 1, 0, 0, 1], y: 0 },
  ];
  const clustered = rows.map((r) => {
    const sizes = r.labels.map((_, k) => r.assign.filter((a) => a === k).length);
    const modal = sizes.indexOf(Math.max(...sizes));
    return JSON.stringify({
      id: r.id, question: r.question, gold_answer: r.gold, model: 'tiny', n_samples: r.assign.length,
      results: r.assign.map((k) => `Answer: ${r.labels[k]}`), answer_extracted: r.assign.map((k) => r.labels[k]),
      confidence_verbalized: r.assign.map(() => null), n_clusters: r.labels.length, cluster_labels: r.labels,
      cluster_assignments: r.assign, cluster_sizes: sizes, modal_cluster: modal, modal_cluster_label: r.labels[modal],
    });
  });
  const graded = rows.map((r) => JSON.stringify({ id: r.id, grade: r.y ? 'CORRECT' : 'INCORRECT', Y: r.y }));
  const read = readAuthorsRows({ text: clustered.join('\n'), file: 'c.jsonl' }, { text: graded.join('\n'), file: 'g.jsonl' });
  if (!read.ok) throw new Error(read.error.message);
  const report = scoreAuthorsRows(read.value, { samples: 'answers', B: 50 });
  return { rows, doc: buildReport([report], { title: 'live', dataset: { name: 'live' }, settings: importedSettings({ B: 50 }, 12) }) };
}

describe('live classroom results', () => {
  it('reads a scored report back: samples and classes as sampled, the walk-through\'s splits giving the scorer\'s Sem2', () => {
    const { rows, doc } = scoredReport();
    const live = liveResult(doc)!;
    expect(live.questions.map((q) => q.id)).toEqual(['a', 'b']);
    live.questions.forEach((q, i) => {
      expect(q.samples.map((s) => s.cls)).toEqual(rows[i].assign);
      expect(q.sem2).toBe(sem2HeldOut(rows[i].assign, rows[i].labels.length));
      expect(q.steps).toHaveLength(10);
      // The running mean after the last split is Sem2 (summed in another order: equal to the last bits but one).
      expect(q.steps.at(-1)!.runningSem2).toBeCloseTo(q.sem2, 12);
      for (const step of q.steps) {
        expect(step.selection.length + step.evaluation.length).toBe(12);
        expect(step.selection).toHaveLength(6);
        expect(step.hits).toBe(step.evaluation.filter((j) => rows[i].assign[j] === step.z).length);
      }
    });
    expect(live.questions[0].sem1).toBeCloseTo(7 / 12, 15);
    expect(live.summary).toMatchObject({ questions: 2, accuracy: 0.5 });
    expect(live.summary.meanSem1).toBeCloseTo((7 / 12 + 7 / 12) / 2, 15);
    expect(live.summary.above + live.summary.equal + live.summary.below).toBe(2);
  });

  it('a report without samples has nothing to show; the caption says what the numbers say', () => {
    const { doc } = scoredReport();
    const bare = { ...doc, models: doc.models.map((m) => ({ ...m, questions: m.questions.map(({ samples: _s, ...q }) => q) })) };
    expect(liveResult(bare)).toBeNull();
    const caption = liveCaption({ questions: 8, meanSem1: 0.8, meanSem2: 0.7, accuracy: 0.625, above: 6, equal: 1, below: 1 });
    expect(caption).toMatch(/^Over 8 questions, Sem1 averages 80\.0% and Sem2 70\.0%; 62\.5% of the modal answers are right\. Sem1 is higher than Sem2 on 6 of 8 questions and lower on 1/);
    expect(liveCaption({ questions: 3, meanSem1: 1, meanSem2: 1, accuracy: 1, above: 0, equal: 3, below: 0 })).toMatch(/not above Sem2/);
  });
});
