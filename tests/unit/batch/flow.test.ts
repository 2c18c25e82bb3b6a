/**
 * End-to-end batch flows in Node against the loopback mock's batch endpoints, for each service:
 * submit, poll, results into the sample cache; mixing with interactive sampling without paying
 * twice; failures inside a batch retried interactively or listed; expired batches re-requested.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchServiceFor } from '../../../src/batch/service-for-model.ts';
import { SampleRequestSet } from '../../../src/batch/request-set.ts';
import { submitSampleBatches } from '../../../src/batch/sample-batches.ts';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import { readSamples, runSampling } from '../../../src/pipeline/sampling.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import type { BatchApi } from '../../../src/batch/service.ts';
import { MockProviderServer } from '../../mock/provider-server.ts';
import { QUESTIONS, SETTINGS } from './fixtures.ts';

const KEY = 'batch-secret-key-123';
const N = 4;
const ANSWERS: Record<string, Record<string, number>> = { q1: { Paris: 3, Lyon: 1 }, q2: { Shakespeare: 1 }, q3: { '8': 2, '6': 1 } };
let mock: MockProviderServer;

beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: KEY, questions: QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: ANSWERS[q.id] })) });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.resetStats();
  mock.batches.configure({});
});

const MODEL: Record<BatchApi, { preset: string; model: string; path: string }> = {
  openai: { preset: 'openai', model: 'gpt-4o-mini', path: '/v1' },
  anthropic: { preset: 'anthropic', model: 'claude-haiku-4-5', path: '/v1' },
  gemini: { preset: 'gemini', model: 'gemini-2.5-flash', path: '/v1beta' },
};

function modelOf(api: BatchApi) {
  return { kind: api, preset: MODEL[api].preset, baseUrl: `${mock.url}${MODEL[api].path}`, model: MODEL[api].model };
}

async function setOf(api: BatchApi) {
  const r = await SampleRequestSet.create({ model: modelOf(api), settings: SETTINGS, n: N, questions: QUESTIONS });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const noWait = { intervalMs: 1, sleep: async () => undefined };
const provider = (api: BatchApi) => createProvider({ ...modelOf(api), apiKey: KEY }, { http: { sleep: async () => undefined } });

async function answers(api: BatchApi, cache: MemorySampleCache) {
  return readSamples({ questions: QUESTIONS, provider: provider(api), settings: SETTINGS, n: N, cache });
}

for (const api of ['openai', 'anthropic', 'gemini'] as const) {
  describe(`${api} batch flow`, () => {
    it('submits, polls and stores every sample where interactive sampling reads it', async () => {
      const cache = new MemorySampleCache();
      const statuses: string[] = [];
      const r = await submitSampleBatches({ set: await setOf(api), service: batchServiceFor(modelOf(api), KEY), cache, poll: noWait, onEvent: (e) => e.type === 'status' && statuses.push(e.status.raw) });
      expect(r.state).toBe('done');
      expect(r.missing).toBe(0);
      expect(statuses.length).toBeGreaterThanOrEqual(2);
      expect(statuses.at(-1)).toBe({ openai: 'completed', anthropic: 'ended', gemini: 'BATCH_STATE_SUCCEEDED' }[api]);
      const stored = await answers(api, cache);
      stored.forEach((samples, qi) => samples.forEach((s) => expect(Object.keys(ANSWERS[QUESTIONS[qi].id])).toContain(s?.answer)));
      expect(mock.stats().served).toEqual({ q1: N, q2: N, q3: N });
      expect(mock.batches.created[api]).toBe(1);
    });

    it('mixes with interactive sampling and never requests a cached sample again', async () => {
      const cache = new MemorySampleCache();
      // Interactively: 2 of the 4 samples of each question.
      const first = await runSampling({ questions: QUESTIONS, provider: provider(api), settings: SETTINGS, n: 2, cache });
      expect(first.state).toBe('done');
      // The first two keys of n=4 equal those of n=2 only if n is not part of the key: check that the batch asks for 2 more.
      const set = await setOf(api);
      const r = await submitSampleBatches({ set, service: batchServiceFor(modelOf(api), KEY), cache, poll: noWait });
      expect(r.state).toBe('done');
      expect(mock.stats().served).toEqual({ q1: N, q2: N, q3: N });
      // A second submission finds nothing to do and creates no batch.
      const before = mock.batches.created[api];
      const again = await submitSampleBatches({ set, service: batchServiceFor(modelOf(api), KEY), cache, poll: noWait });
      expect(again.state).toBe('done');
      expect(mock.batches.created[api]).toBe(before);
    });

    it('retries requests that failed inside the batch through the interactive path', async () => {
      mock.batches.configure({ failEvery: 2 });
      const cache = new MemorySampleCache();
      const r = await submitSampleBatches({ set: await setOf(api), service: batchServiceFor(modelOf(api), KEY), cache, poll: noWait, interactive: { provider: provider(api) } });
      expect(r.failedInBatch).toBeGreaterThan(0);
      expect(r.interactive?.state).toBe('done');
      expect(r.state).toBe('done');
      expect(r.failed).toEqual([]);
      expect(mock.stats().served).toEqual({ q1: N, q2: N, q3: N });
    });

    it('lists failed requests when no interactive retry is wanted', async () => {
      mock.batches.configure({ failEvery: 2 });
      const cache = new MemorySampleCache();
      const r = await submitSampleBatches({ set: await setOf(api), service: batchServiceFor(modelOf(api), KEY), cache, poll: noWait });
      expect(r.state).toBe('incomplete');
      expect(r.failed.length).toBe(r.failedInBatch);
      expect(r.failed[0].message).toContain('mock item failure');
      expect(r.missing).toBe(r.failed.reduce((s, f) => s + f.indices.length, 0));
    });

    it('keeps the completed part of an expired batch and re-requests the rest in a new batch', async () => {
      mock.batches.configure({ expireAfter: 1 });
      const cache = new MemorySampleCache();
      const createdBefore = mock.batches.created[api];
      const r = await submitSampleBatches({ set: await setOf(api), service: batchServiceFor(modelOf(api), KEY), cache, poll: noWait, maxRounds: 30 });
      expect(r.batches[0].phase).toBe('expired');
      expect(r.state).toBe('done');
      expect(mock.batches.created[api] - createdBefore).toBe(r.batches.length);
      expect(r.batches.length).toBeGreaterThan(1);
      expect(mock.stats().served).toEqual({ q1: N, q2: N, q3: N });
    });

    it('reports a refused batch as failed, with a message that never holds the key', async () => {
      mock.batches.configure({ rejectBatch: 'mock validation failure' });
      const r = await submitSampleBatches({ set: await setOf(api), service: batchServiceFor(modelOf(api), KEY), cache: new MemorySampleCache(), poll: noWait });
      expect(r.state).toBe('failed');
      expect(r.error?.message).toContain('mock validation failure');
      const bad = await submitSampleBatches({ set: await setOf(api), service: batchServiceFor(modelOf(api), 'wrong-key-456'), cache: new MemorySampleCache(), poll: noWait });
      expect(bad.state).toBe('failed');
      expect(bad.error?.kind).toBe('auth');
      expect(JSON.stringify(bad)).not.toContain('wrong-key-456');
    });
  });
}
