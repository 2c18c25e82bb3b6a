import { describe, expect, test } from 'vitest';
import { DROPPED_NOTE, MAX_KEPT_FILE_CHARS, forgetDraft, restoreDraft, saveDraft, snapshotDraft } from '../../../../src/ui/run/draft-storage';
import { RunDraft } from '../../../../src/ui/run/draft.svelte';
import { memoryStorage, noHub } from './draft-fixtures';
import { KeyRing } from '../../../../src/ui/state/keys.svelte';

describe('the wizard draft in session storage', () => {
  test('every choice comes back after a reload: step, file and mapping, subset, models, settings', async () => {
    const storage = memoryStorage();
    const d = new RunDraft(noHub());
    d.datasetChoice = 'file';
    await d.loadFile('quiz.csv', 'frage,antwort\nWhat is 2+2?,4\nWho wrote Hamlet?,Shakespeare\n');
    expect(d.fileError?.message).toMatch(/map the columns/);
    d.mapping = { frage: 'question', antwort: 'answer' };
    await d.readWithMapping();
    d.subset = { on: true, n: 1, seed: 9, stratify: false };
    d.models = [{ uid: 99, preset: 'vllm', model: 'local-model', baseUrl: 'http://127.0.0.1:8000/v1' }];
    d.sampling = { ...d.sampling, n: 7, temperature: 0.7 };
    d.clusteringMethod = 'embedding';
    d.clusterings.embedding.threshold = 0.8;
    d.step = 2;
    d.title = 'my run';
    saveDraft(d, storage);

    const back = new RunDraft(noHub());
    const restored = restoreDraft(back, storage);
    expect(restored).toMatchObject({ found: true, reloadHub: false });
    await restored.ready;
    expect(back.step).toBe(2);
    expect(back.title).toBe('my run');
    expect(back.file?.name).toBe('quiz.csv');
    expect(back.dataset?.questions).toHaveLength(1);
    expect(back.subset).toEqual({ on: true, n: 1, seed: 9, stratify: false });
    expect(back.models.map(({ preset, model, baseUrl }) => ({ preset, model, baseUrl }))).toEqual([{ preset: 'vllm', model: 'local-model', baseUrl: 'http://127.0.0.1:8000/v1' }]);
    expect(back.sampling).toMatchObject({ n: 7, temperature: 0.7 });
    expect(back.clusteringMethod).toBe('embedding');
    expect(back.clusterings.embedding.threshold).toBe(0.8);
    expect(snapshotDraft(back)).toEqual(snapshotDraft(d));
  });

  test('a key typed for the model stays in the key ring: the stored draft never holds it', () => {
    const storage = memoryStorage();
    const ring = new KeyRing({ rememberedKeys: async () => ({ ok: true, value: {} }), rememberKey: async () => ({ ok: true, value: true }), forgetKey: async () => ({ ok: true, value: true }) });
    const d = new RunDraft(noHub());
    ring.setMemory(d.models[0], 'sk-typed-in-this-tab-0123456789');
    ring.setMemory({ preset: 'huggingface', baseUrl: d.hub.hubUrl }, 'hf_typedtoken0123456789');
    saveDraft(d, storage);
    const text = [...storage.data.values()].join('');
    expect(text).not.toContain('sk-typed');
    expect(text).not.toContain('hf_typed');
    expect(Object.keys(JSON.parse(text)).filter((k) => /key|token/i.test(k))).toEqual([]);
  });

  test('a file too large for session storage is named, not kept: the page asks for it again', async () => {
    const storage = memoryStorage();
    const d = new RunDraft(noHub());
    d.datasetChoice = 'file';
    await d.loadFile('big.csv', `question,answer\n${'What?,x\n'.repeat(Math.ceil(MAX_KEPT_FILE_CHARS / 8) + 1)}`);
    saveDraft(d, storage);
    const back = new RunDraft(noHub());
    expect(restoreDraft(back, storage)).toEqual({ found: true, reloadHub: false, fileToChooseAgain: 'big.csv' });
    expect(back.file).toBeNull();
  });

  test('a stored draft of the wrong shape is ignored field by field, never trusted; forgetting clears it', () => {
    const storage = memoryStorage();
    storage.setItem('semece-new-run-draft', JSON.stringify({ version: 1, step: 99, datasetChoice: 'everything', demoCount: 'many', models: [{ preset: 1 }], clusteringMethod: 'magic', hub: { choice: 'not-a-benchmark' } }));
    const back = new RunDraft(noHub());
    const restored = restoreDraft(back, storage);
    expect(restored.found).toBe(true);
    // One line naming what was left at its default (the step, out of range, is clamped instead).
    expect(restored.note).toBe('Part of the saved draft could not be restored and was left at its default (dataset choice, number of demo questions, models, clustering method).');
    expect(back.step).toBe(3);
    expect(back.datasetChoice).toBe('demo');
    expect(back.demoCount).toBe(20);
    expect(back.models).toHaveLength(1);
    expect(back.clusteringMethod).toBe('exact');
    expect(back.hub.choice).toBe('simpleqa');
    storage.setItem('semece-new-run-draft', '{not json');
    expect(restoreDraft(new RunDraft(noHub()), storage)).toEqual({ found: false, reloadHub: false, note: DROPPED_NOTE });
    // Dropped, so the next reload starts clean without a note.
    expect(restoreDraft(new RunDraft(noHub()), storage)).toEqual({ found: false, reloadHub: false });
    storage.setItem('semece-new-run-draft', JSON.stringify({ version: 1, sampling: { n: 5, temperature: 1, maxTokens: 64, concurrency: 2, prompt: 42 } }));
    const prompted = new RunDraft(noHub());
    expect(restoreDraft(prompted, storage).note).toMatch(/\(sampling settings\)\.$/);
    expect(prompted.sampling.prompt).toBe(new RunDraft(noHub()).sampling.prompt);
    forgetDraft(storage);
    expect(storage.data.size).toBe(0);
  });
});
