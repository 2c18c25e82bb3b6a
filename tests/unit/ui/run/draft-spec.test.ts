/**
 * The wizard's draft is a RunSpec: its settings go to a spec and back unchanged, are read back
 * through the schema a stored run's spec is checked with, carry the scoring settings into the
 * run, and a draft saved in the old (version 1) shape still restores.
 */
import { describe, expect, test } from 'vitest';
import { restoreDraft, saveDraft, snapshotDraft } from '../../../../src/ui/run/draft-storage';
import { RunDraft } from '../../../../src/ui/run/draft.svelte';
import { memoryStorage, noHub } from './draft-fixtures';
import { draftSpecSchema, runSpecSchema } from '../../../../src/formats/run-spec-schema';
import { SCORING_DEFAULTS } from '../../../../src/model/run-spec';
import { readStoredRun, toStoredRun } from '../../../../src/store/run-records';
import { runRecord } from '../../store/run-record-fixture';

/** A draft with every kind of setting changed from its default. */
function changedDraft(): RunDraft {
  const d = new RunDraft(noHub());
  d.title = 'scored my way';
  d.demoCount = 6;
  d.models = [
    { uid: 1, preset: 'vllm', model: 'local-model', baseUrl: 'http://127.0.0.1:8000/v1' },
    { uid: 2, preset: 'anthropic', model: 'claude-x', baseUrl: 'https://api.anthropic.com' },
  ];
  d.sampling = { n: 9, temperature: 0.7, topP: 0.9, maxTokens: 128, prompt: 'Q: {question}\nA:', concurrency: 3 };
  // Embedding chosen; the judge and NLI settings are kept for when the user switches back.
  d.clusterings.judge.judge = { uid: 3, preset: 'openai', model: 'gpt-judge', baseUrl: 'https://api.openai.com/v1' };
  d.clusterings.entailment.model = 'my/nli-model';
  d.clusterings.entailment.allowRemote = false;
  d.clusteringMethod = 'embedding';
  d.clusterings.embedding.model = 'my/embedder';
  d.clusterings.embedding.threshold = 0.8;
  d.clusterings.embedding.allowRemote = false;
  d.gradingMethod = 'judge';
  d.gradingJudge = { uid: 4, preset: 'openai', model: 'gpt-grader', baseUrl: 'https://api.openai.com/v1' };
  d.mc = { runs: 5, seed: 3, samples: 4, logprobs: false };
  d.scoring = { sem2: { R: 20, seed: 11, selection: 'half' }, bins: 15, bootstrap: { B: 250, seed: 99 } };
  return d;
}

/** Every key of a JSON value, at any depth. */
const allKeys = (v: unknown): string[] => (v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => [...(Array.isArray(v) ? [] : [k]), ...allKeys(x)]) : []);

describe('the wizard draft as a RunSpec', () => {
  test('draft → spec → draft is the same draft, and the spec passes the stored run schema with its scoring', () => {
    const d = changedDraft();
    const spec = d.draftSpec();
    expect(draftSpecSchema.safeParse(spec).success).toBe(true);
    const back = new RunDraft(noHub());
    back.applySpec(structuredClone(spec));
    expect(back.draftSpec()).toEqual(spec);
    // The dataset is the wizard's own choice, beside the spec.
    back.demoCount = d.demoCount;
    expect(back.toSpec()).toEqual(d.toSpec());

    const run = d.toSpec();
    expect(runSpecSchema.safeParse(run).success).toBe(true);
    // The run carries the scoring settings as set, so the report is scored with them.
    expect(run.scoring).toEqual({ sem2: { R: 20, seed: 11, selection: 'half' }, bins: 15, bootstrap: { B: 250, seed: 99 } });
    expect(run.clustering).toEqual({ method: 'embedding', model: 'my/embedder', threshold: 0.8, allowRemote: false });
    expect(run.grading).toEqual({ method: 'judge', judge: { kind: 'openai', preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-grader', concurrency: 3 } });
    // A fresh draft scores with the paper's settings.
    expect(new RunDraft(noHub()).draftSpec().scoring).toEqual(SCORING_DEFAULTS);
  });

  test('a stored run with scoring settings reads back; one outside model/scoring-limits.ts is refused naming the field', () => {
    const spec = { ...runRecord('r1', '2026-01-01T00:00:00.000Z').spec, scoring: { sem2: { R: 20, seed: 11, selection: 'half' as const }, bins: 15, bootstrap: { B: 250, seed: 99 } } };
    const run = runRecord('r1', '2026-01-01T00:00:00.000Z', { spec });
    const stored = toStoredRun(run);
    expect(readStoredRun('r1', stored, { runId: 'r1', questions: run.spec.dataset.questions }).spec.scoring).toEqual(spec.scoring);
    const tooMany = toStoredRun({ ...run, spec: { ...spec, scoring: { ...spec.scoring, bins: 5000 } } });
    expect(() => readStoredRun('r1', tooMany, { runId: 'r1', questions: run.spec.dataset.questions })).toThrow(
      'The stored run "r1" cannot be read: spec.scoring.bins: expected a whole number from 1 to 1,000, got 5000',
    );
  });

  test('saved and restored: the same settings, scoring and the other methods’ settings included, and no key anywhere', () => {
    const storage = memoryStorage();
    const d = changedDraft();
    d.step = 2;
    saveDraft(d, storage);
    const text = [...storage.data.values()].join('');
    const stored = JSON.parse(text);
    expect(stored.version).toBe(2);
    expect(stored.spec).toEqual(JSON.parse(JSON.stringify(d.draftSpec())));
    expect(allKeys(stored).filter((k) => /key|token$|secret|auth|password/i.test(k))).toEqual([]);

    const back = new RunDraft(noHub());
    expect(restoreDraft(back, storage)).toEqual({ found: true, reloadHub: false });
    expect(snapshotDraft(back)).toEqual(snapshotDraft(d));
    expect(back.scoring).toEqual(d.scoring);
    // Switching back to a method not chosen finds its settings.
    expect(back.clusteringFor('judge')).toEqual(d.clusteringFor('judge'));
    expect(back.clusteringFor('entailment')).toEqual({ method: 'entailment', model: 'my/nli-model', allowRemote: false });
  });

  test('scoring outside the limits is named in words; a stored draft with such scoring keeps the paper’s with a note', () => {
    const d = new RunDraft(noHub());
    expect(d.problems(2)).toEqual([]);
    d.scoring = { sem2: { R: 0, seed: -1, selection: 'half' }, bins: 5000, bootstrap: { B: 200_000, seed: 1.5 } };
    expect(d.problems(2)).toEqual([
      'Sem2 splits (R): expected a whole number from 1 to 10,000, got 0.',
      'Sem2 seed: expected a whole number from 0 to 9,007,199,254,740,991, got -1.',
      'Bins of the ECE: expected a whole number from 1 to 1,000, got 5000.',
      'Bootstrap replicates (B): expected a whole number from 1 to 100,000, got 200000.',
      'Bootstrap seed: expected a whole number from 0 to 9,007,199,254,740,991, got 1.5.',
    ]);
    // An emptied field (a number input reads as null) is missing, not "null".
    d.scoring = { ...d.scoring, sem2: { R: 10, seed: 0, selection: 'half' }, bins: null as unknown as number, bootstrap: { B: 1000, seed: 7 } };
    expect(d.problems(2)).toEqual(['Bins of the ECE: missing (expected a whole number from 1 to 1,000).']);

    const storage = memoryStorage();
    const saved = changedDraft();
    saveDraft(saved, storage);
    const stored = JSON.parse(storage.getItem('semece-new-run-draft')!);
    stored.spec.scoring.bins = 5000;
    storage.setItem('semece-new-run-draft', JSON.stringify(stored));
    const back = new RunDraft(noHub());
    expect(restoreDraft(back, storage).note).toBe('Part of the saved draft could not be restored and was left at its default (scoring settings).');
    expect(back.scoring).toEqual(SCORING_DEFAULTS);
    expect(back.sampling).toEqual(saved.sampling);
  });

  test('a draft saved in the old shape (version 1) is upgraded: every setting comes back, with no note', async () => {
    // Exactly what the wizard stored before the draft was a RunSpec.
    const v1 = {
      version: 1,
      step: 2,
      title: 'an old draft',
      datasetChoice: 'file',
      demoCount: 20,
      file: { name: 'quiz.csv', text: 'question,answer\nWhat is 2+2?,4\nWho wrote Hamlet?,Shakespeare\n' },
      mapping: { question: 'question', answer: 'answer' },
      subset: { on: true, n: 1, seed: 9, stratify: false },
      hub: { choice: 'other', repo: 'me/data', config: 'default', split: 'test', file: '', hubUrl: 'https://huggingface.co', loaded: false },
      models: [{ preset: 'vllm', model: 'local-model', baseUrl: 'http://127.0.0.1:8000/v1' }],
      sampling: { n: 7, temperature: 0.7, topP: 0.95, maxTokens: 256, prompt: 'Answer: {question}', concurrency: 4 },
      clusteringMethod: 'judge',
      clusteringJudge: { preset: 'anthropic', model: 'claude-judge', baseUrl: 'https://api.anthropic.com' },
      embeddingModel: 'my/embedder',
      embeddingThreshold: 0.75,
      embeddingAllowRemote: false,
      nliModel: 'my/nli',
      nliAllowRemote: true,
      gradingMethod: 'alias',
      gradingJudge: { preset: 'openai', model: 'gpt-grader', baseUrl: 'https://api.openai.com/v1' },
      mode: 'open',
      mc: { runs: 4, seed: 2, samples: 0, logprobs: false },
    };
    const storage = memoryStorage();
    storage.setItem('semece-new-run-draft', JSON.stringify(v1));
    const back = new RunDraft(noHub());
    const restored = restoreDraft(back, storage);
    expect(restored).toMatchObject({ found: true, reloadHub: false });
    expect(restored.note).toBeUndefined();
    await restored.ready;
    expect(back.step).toBe(2);
    expect(back.title).toBe('an old draft');
    expect(back.datasetChoice).toBe('file');
    expect(back.file?.name).toBe('quiz.csv');
    expect(back.dataset?.questions).toHaveLength(1);
    expect(back.subset).toEqual(v1.subset);
    expect(back.hub.choice).toBe('other');
    expect(back.hub.repo).toBe('me/data');
    const { uid: _u, ...model } = back.models[0];
    expect(model).toEqual(v1.models[0]);
    expect(back.sampling).toEqual(v1.sampling);
    expect(back.clusteringMethod).toBe('judge');
    expect(back.clusteringFor('judge')).toEqual({ method: 'judge', judge: { kind: 'anthropic', ...v1.clusteringJudge } });
    expect(back.clusteringFor('embedding')).toEqual({ method: 'embedding', model: 'my/embedder', threshold: 0.75, allowRemote: false });
    expect(back.clusteringFor('entailment')).toEqual({ method: 'entailment', model: 'my/nli', allowRemote: true });
    expect(back.gradingMethod).toBe('alias');
    expect(back.gradingFor('judge')).toEqual({ method: 'judge', judge: { kind: 'openai', ...v1.gradingJudge } });
    expect(back.mc).toEqual(v1.mc);
    // Scoring was not in the old draft: the paper's settings.
    expect(back.scoring).toEqual(SCORING_DEFAULTS);
    // Saved again, it is a version-2 draft of the same settings.
    saveDraft(back, storage);
    expect(JSON.parse(storage.getItem('semece-new-run-draft')!).version).toBe(2);
    const again = new RunDraft(noHub());
    await restoreDraft(again, storage).ready;
    expect(snapshotDraft(again)).toEqual(snapshotDraft(back));
  });

  test('a draft of an unknown version, or whose parts are not objects, is dropped with the one-line note', () => {
    const storage = memoryStorage();
    for (const bad of [{ version: 3, spec: {}, wizard: {} }, { version: 2, spec: 'x', wizard: {} }, [1, 2]]) {
      storage.setItem('semece-new-run-draft', JSON.stringify(bad));
      expect(restoreDraft(new RunDraft(noHub()), storage)).toEqual({ found: false, reloadHub: false, note: 'The saved draft of this page could not be read, so it was dropped: the wizard starts afresh.' });
      expect(storage.data.size).toBe(0);
    }
  });
});
