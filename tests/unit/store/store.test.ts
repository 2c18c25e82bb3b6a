import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { openStores } from '../../../src/store/stores';
import { sampleKey } from '../../../src/model/sample-cache';
import { runRecord } from './run-record-fixture';
import type { Sample } from '../../../src/model/rows';

let dbCount = 0;
const fresh = () => openStores(`test-${++dbCount}-${Math.random()}`);

const sample = (answer: string): Sample => ({
  raw: `Answer: ${answer}\nConfidence: 80%`,
  answer,
  answerMethod: 'answer-line',
  confidence: 0.8,
  confidenceMethod: 'confidence-line',
  finishReason: 'stop',
});

const run = runRecord;

describe('IdbSampleCache', () => {
  test('stores a batch and finds it again, in key order, with holes for missing keys', async () => {
    const { samples } = await fresh();
    const keys = await Promise.all([0, 1, 2].map((index) => sampleKey({ preset: 'openai', baseUrl: 'http://h/v1', model: 'm', prompt: 'p', settings: { temperature: 1, maxTokens: 8 }, questionId: 'q', question: 'Q?', index })));
    await samples.put([{ key: keys[2], sample: sample('c') }, { key: keys[0], sample: sample('a') }]);
    const got = await samples.get(keys);
    expect(got.map((s) => s?.answer)).toEqual(['a', undefined, 'c']);
  });

  test('many small puts land in few transactions and all survive a reopen', async () => {
    const name = `batch-${Math.random()}`;
    const first = await openStores(name);
    await Promise.all(Array.from({ length: 300 }, (_, i) => first.samples.put([{ key: `question-A#${i}`, sample: sample(String(i)) }])));
    first.db.close();
    const second = await openStores(name);
    // One record for the question, whatever the number of puts.
    expect(await second.db.count('questionSamples')).toBe(1);
    expect((await second.samples.storedIndices(['question-A'], 300))[0].every(Boolean)).toBe(true);
    expect((await second.samples.get(['question-A#0', 'question-A#299'])).map((s) => s?.answer)).toEqual(['0', '299']);
  });

  test('writing the same key twice keeps one sample; put replaces it, putMissing keeps the first', async () => {
    const { samples, db } = await fresh();
    await samples.put([{ key: 'same', sample: sample('x') }]);
    await samples.put([{ key: 'same', sample: sample('x') }]);
    expect(await db.count('questionSamples')).toBe(1);
    expect((await db.get('questionSamples', 'same'))!.slots).toEqual(['#']);
    expect(await samples.putMissing([{ key: 'same', sample: sample('y') }, { key: 'same#1', sample: sample('z') }])).toBe(1);
    expect((await samples.get(['same', 'same#1'])).map((s) => s?.answer)).toEqual(['x', 'z']);
    await samples.put([{ key: 'same', sample: sample('w') }]);
    await samples.flush();
    expect((await samples.get(['same']))[0]?.answer).toBe('w');
  });
});

describe('RunStore', () => {
  test('lists runs newest first and deletes a run with its report and overrides, keeping samples', async () => {
    const { runs, samples, db } = await fresh();
    await runs.saveRun(run('old', '2026-01-01T00:00:00.000Z'));
    await runs.saveRun(run('new', '2026-02-01T00:00:00.000Z'));
    await samples.put([{ key: 'k', sample: sample('x') }]);
    await runs.setGradeOverride({ runId: 'old', model: 'openai/m', questionId: 'q1', grade: 'CORRECT' });
    expect((await runs.listRuns()).runs.map((r) => r.id)).toEqual(['new', 'old']);
    expect((await runs.gradeOverrides('old')).get('openai/m')?.get('q1')).toBe('CORRECT');
    await runs.deleteRun('old');
    expect((await runs.listRuns()).runs.map((r) => r.id)).toEqual(['new']);
    expect((await runs.gradeOverrides('old')).size).toBe(0);
    expect(await db.count('questionSamples')).toBe(1);
  });

  test('a key handed over by mistake never reaches the stored record', async () => {
    const { runs, db } = await fresh();
    const leaky = run('leak', '2026-01-01T00:00:00.000Z');
    (leaky.spec.models[0] as { apiKey?: string }).apiKey = 'sk-secret-123';
    leaky.spec.grading = { method: 'judge', judge: { ...leaky.spec.models[0] } };
    await runs.saveRun(leaky);
    const stored = await db.get('runs', 'leak');
    expect(JSON.stringify(stored)).not.toContain('sk-secret-123');
    expect(stored?.spec.models[0].model).toBe('m');
  });
});

describe('settings and embeddings', () => {
  test('remembered keys can be listed and forgotten; the price table round-trips', async () => {
    const { settings } = await fresh();
    await settings.rememberKey('openai@https://api.openai.com', 'sk-1');
    await settings.rememberKey('anthropic@https://api.anthropic.com', 'sk-2');
    await settings.setPriceTable({ 'openai/gpt-4o-mini': { input: 0.15, output: 0.6 } });
    expect(await settings.rememberedKeys()).toEqual({ 'openai@https://api.openai.com': 'sk-1', 'anthropic@https://api.anthropic.com': 'sk-2' });
    await settings.forgetKey('openai@https://api.openai.com');
    expect(Object.keys(await settings.rememberedKeys())).toEqual(['anthropic@https://api.anthropic.com']);
    expect((await settings.getPriceTable())?.['openai/gpt-4o-mini'].output).toBe(0.6);
  });

  test('embeddings are keyed by model, its identity and text; a vector stored before identities is a miss', async () => {
    const { embeddings, db } = await fresh();
    await embeddings.put([{ model: 'm1', identity: 'i1', text: 'Paris', vector: new Float32Array([1, 2]) }]);
    await embeddings.flush();
    const [hit, missOtherModel, missOtherIdentity] = await embeddings.get([
      { model: 'm1', identity: 'i1', text: 'Paris' },
      { model: 'm2', identity: 'i1', text: 'Paris' },
      { model: 'm1', identity: 'i2', text: 'Paris' },
    ]);
    expect(Array.from(hit!)).toEqual([1, 2]);
    expect(missOtherModel).toBeUndefined();
    expect(missOtherIdentity).toBeUndefined();
    await db.put('embeddings', { model: 'm3', text: 'Lyon', vector: new Float32Array([3]) });
    expect(await embeddings.get([{ model: 'm3', identity: 'i3', text: 'Lyon' }])).toEqual([undefined]);
  });
});

test('all samples of one question are one record under their key base, with its slot list beside it', async () => {
  const { samples, db } = await fresh();
  const base = { preset: 'openai', baseUrl: 'http://h/v1', model: 'm', prompt: 'p', settings: { temperature: 1, maxTokens: 8 }, questionId: 'q', question: 'Q?' };
  const keys = await Promise.all([0, 1, 2].map((index) => sampleKey({ ...base, index })));
  const other = await sampleKey({ ...base, questionId: 'q2', question: 'Q2?', index: 0 });
  await samples.put([...keys, other].map((key) => ({ key, sample: sample('x') })));
  await samples.flush();
  const group = keys[0].slice(0, keys[0].lastIndexOf('#'));
  expect(await db.count('questionSamples')).toBe(2);
  expect([...(await db.get('questionSamples', group))!.slots].sort()).toEqual(['0', '1', '2']);
  expect((await db.get('questionSlots', group))!.slots.sort()).toEqual(['0', '1', '2']);
});
