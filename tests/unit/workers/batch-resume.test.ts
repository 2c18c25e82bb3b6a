/**
 * A batch submitted from the app survives a closed tab: the batch worker's functions
 * (workers/batch-api.ts) over the real store on fake-indexeddb and the loopback mock's batch
 * endpoints. A submission is stopped while its batch is still with the provider (the tab closing),
 * then a fresh API over a reopened database finds the recorded batch and collects it, and the
 * mock counts no second batch created; for a model's samples and for the judge's clustering.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchWorkerApi, type BatchProgress, type BatchWorkerApi } from '../../../src/workers/batch-api.ts';
import { openStores, type Stores } from '../../../src/store/stores.ts';
import { DEFAULT_GENERATION_PROMPT } from '../../../src/pipeline/prompts.ts';
import { runSampling } from '../../../src/pipeline/sampling.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import type { RunSpec } from '../../../src/model/run-spec.ts';
import { MockProviderServer } from '../../mock/provider-server.ts';
import { runRecord } from '../store/run-record-fixture.ts';

const KEY = 'sk-resume-secret-key-0123456789';
const QS = [
  { id: 'a', question: 'Capital of France?', answer: 'Paris' },
  { id: 'b', question: 'Capital of Italy?', answer: 'Rome' },
];
const JUDGE_MODEL = 'gpt-4o';
let mock: MockProviderServer;

beforeAll(async () => {
  mock = await MockProviderServer.start({
    apiKey: KEY,
    questions: [
      { match: 'Capital of France?', id: 'a', answers: { Paris: 1, Lyon: 1 } },
      { match: 'Capital of Italy?', id: 'b', answers: { Rome: 1, Milan: 1 } },
    ],
  });
  // The judge answers with a partition of the (two) distinct answers it is shown; samples come from the answer table.
  mock.responder = (req) => (req.model === JUDGE_MODEL ? '{"clusters":[{"label":"A","members":[0]},{"label":"B","members":[1]}]}' : undefined);
});
afterAll(() => mock.close());
// Batches stay "in progress" until a test lets them end.
beforeEach(() => mock.batches.configure({ pollsUntilDone: 1e9 }));

function specOf(judge: boolean): RunSpec {
  const model = { kind: 'openai' as const, preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' };
  return {
    title: 't', dataset: { name: 'd', source: 'test', questions: QS }, models: [model],
    sampling: { n: 4, temperature: 1, maxTokens: 200, prompt: DEFAULT_GENERATION_PROMPT, concurrency: 2 },
    clustering: judge ? { method: 'judge', judge: { ...model, model: JUDGE_MODEL } } : { method: 'exact' }, grading: { method: 'alias' },
  };
}

/** A database with the run stored; `name` to reopen it later. */
async function storedRun(judge: boolean) {
  const name = `batch-resume-${Math.random()}`;
  const stores = await openStores(name);
  const spec = specOf(judge);
  await stores.runs.saveRun(runRecord('run1', '2026-12-06T10:00:00.000Z', { spec }));
  return { name, stores, spec };
}

/** The worker's API over these stores, polling at once (the mock's batches end when a test says). */
const apiOver = (stores: Stores) => batchWorkerApi({ stores: async () => stores, poll: { intervalMs: 1, maxIntervalMs: 2 }, now: () => new Date('2026-12-06T10:30:00.000Z') });

/** Stops the wait as soon as a progress line says `started` (the tab closing while the batch is with the provider). */
const stopOn = (api: BatchWorkerApi, started: RegExp) => (p: BatchProgress) => {
  if (started.test(p.text)) void api.stopWaiting();
};

/** Every record of the pending batches' store, as stored. */
async function storedRecords(stores: Stores): Promise<unknown[]> {
  return stores.db.getAll('pendingBatches');
}

describe('a submitted batch survives a closed tab', () => {
  it('samples: recorded before the wait, found by a fresh API over the reopened database, collected with no new batch', async () => {
    const { name, stores, spec } = await storedRun(false);
    const api = apiOver(stores);
    const created = mock.batches.created.openai;
    const first = await api.submit('run1', 0, { apiKey: KEY, retryInteractively: false }, stopOn(api, /^Submitted batch/));
    expect(first).toMatchObject({ ok: true, value: { state: 'cancelled', missing: 8 } });
    expect(mock.batches.created.openai).toBe(created + 1);
    const pending = await api.pendingBatches('run1');
    expect(pending).toEqual({ ok: true, value: [expect.objectContaining({ runId: 'run1', kind: 'samples', modelIndex: 0, provider: 'openai', model: 'gpt-4o-mini', requests: 2, submittedAt: '2026-12-06T10:30:00.000Z' })] });
    // The id only: no key reaches the database.
    expect(JSON.stringify(await storedRecords(stores))).not.toContain(KEY);
    stores.db.close();

    // The tab reopened: a new connection and a new API.
    const reopened = await openStores(name);
    const again = apiOver(reopened);
    expect(await again.pendingBatches('run1')).toEqual(pending);
    mock.batches.configure({ pollsUntilDone: 1 });
    const resumed = await again.resume('run1', { openai: KEY });
    expect(resumed).toMatchObject({ ok: true, value: { state: 'done', missing: 0 } });
    expect(mock.batches.created.openai).toBe(created + 1);
    expect(await again.pendingBatches('run1')).toEqual({ ok: true, value: [] });
    // Every sample stored: nothing is left to request.
    const files = await again.requestFiles('run1', 0);
    expect(files).toMatchObject({ ok: true, value: { counts: { samples: spec.sampling.n * QS.length, cached: spec.sampling.n * QS.length, requests: 0 } } });
  });

  it('submitting again while a batch is recorded collects it first, says so, and creates no second batch', async () => {
    const { stores } = await storedRun(false);
    const api = apiOver(stores);
    const created = mock.batches.created.openai;
    await api.submit('run1', 0, { apiKey: KEY, retryInteractively: false }, stopOn(api, /^Submitted batch/));
    mock.batches.configure({ pollsUntilDone: 1 });
    const second = await api.submit('run1', 0, { apiKey: KEY, retryInteractively: false });
    expect(second).toMatchObject({ ok: true, value: { state: 'done', missing: 0 } });
    if (!second.ok) throw new Error('unreachable');
    expect(second.value.lines[0]).toMatch(/^Collecting 1 sample batch\(es\) submitted earlier/);
    expect(mock.batches.created.openai).toBe(created + 1);
    expect(await storedRecords(stores)).toEqual([]);
  });

  it('resuming submits nothing, even when part of the collected batch expired', async () => {
    const { stores } = await storedRun(false);
    const api = apiOver(stores);
    const created = mock.batches.created.openai;
    await api.submit('run1', 0, { apiKey: KEY, retryInteractively: false }, stopOn(api, /^Submitted batch/));
    // Only the first request runs; the other expires (a submission would ask it again in a new batch).
    mock.batches.configure({ pollsUntilDone: 1, expireAfter: 1 });
    const resumed = await api.resume('run1', { openai: KEY });
    expect(resumed).toMatchObject({ ok: true, value: { state: 'incomplete', missing: 4 } });
    expect(mock.batches.created.openai).toBe(created + 1);
    expect(await storedRecords(stores)).toEqual([]);
  });

  it('"Forget" clears the record: the next submission pays for a new batch', async () => {
    const { stores } = await storedRun(false);
    const api = apiOver(stores);
    const created = mock.batches.created.openai;
    await api.submit('run1', 0, { apiKey: KEY, retryInteractively: false }, stopOn(api, /^Submitted batch/));
    const [batch] = (await stores.pendingBatches.list('run1'));
    expect(await api.forget('run1', batch.batchId)).toEqual({ ok: true, value: undefined });
    expect(await storedRecords(stores)).toEqual([]);
    mock.batches.configure({ pollsUntilDone: 1 });
    expect(await api.submit('run1', 0, { apiKey: KEY, retryInteractively: false })).toMatchObject({ ok: true, value: { state: 'done' } });
    expect(mock.batches.created.openai).toBe(created + 2);
  });

  it('resuming with no key fails without the key in the error, and keeps the record', async () => {
    const { stores } = await storedRun(false);
    const api = apiOver(stores);
    await api.submit('run1', 0, { apiKey: KEY, retryInteractively: false }, stopOn(api, /^Submitted batch/));
    mock.batches.configure({ pollsUntilDone: 1 });
    const r = await api.resume('run1', {});
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).not.toContain(KEY);
    expect(await storedRecords(stores)).toHaveLength(1);
  });

  it('judge: the judge batch is recorded, found after reopening, and its groupings stored with no new batch', async () => {
    const { name, stores, spec } = await storedRun(true);
    const provider = createProvider({ ...spec.models[0], apiKey: KEY }, { http: { sleep: async () => undefined } });
    await runSampling({ questions: QS, provider, settings: { temperature: 1, maxTokens: 200 }, n: spec.sampling.n, cache: stores.samples });
    await stores.samples.flush();
    const api = apiOver(stores);
    const created = mock.batches.created.openai;
    const first = await api.submitJudge('run1', KEY, stopOn(api, /^Judge batch/));
    expect(first).toMatchObject({ ok: true, value: { state: 'cancelled' } });
    expect(mock.batches.created.openai).toBe(created + 1);
    expect(await stores.pendingBatches.list('run1')).toEqual([expect.objectContaining({ kind: 'judge', provider: 'openai', model: JUDGE_MODEL, requests: 2 })]);
    expect((await stores.pendingBatches.list('run1'))[0].modelIndex).toBeUndefined();
    stores.db.close();

    const reopened = await openStores(name);
    const again = apiOver(reopened);
    mock.batches.configure({ pollsUntilDone: 1 });
    const resumed = await again.resume('run1', { openai: KEY });
    expect(resumed).toMatchObject({ ok: true, value: { state: 'done' } });
    expect(mock.batches.created.openai).toBe(created + 1);
    expect(await reopened.pendingBatches.list('run1')).toEqual([]);
    // Both questions grouped: the judge has nothing left to ask.
    expect(await again.judgeRequestFiles('run1')).toMatchObject({ ok: true, value: { counts: { cached: 2, requests: 0 } } });
  });
});
