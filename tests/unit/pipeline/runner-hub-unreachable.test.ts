/**
 * An in-page clusterer whose model must come from the hub, with the hub unreachable: the cluster
 * stage stops at the first such failure (no question after it asks the model again) and the run
 * fails on that one cause, said once, in its own kind and words, instead of once per question.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { memoryStores } from '../../mock/memory-stores';
import { MemoryEntailmentCache } from '../../mock/memory-entailment-cache';
import { executeRun, newRun } from '../../../src/pipeline/runner';
import { realStages } from '../../../src/workers/real-stages';
import { keyId, type RunSpec } from '../../../src/model/run-spec';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { createEntailmentClusterer, type EntailmentDecider } from '../../../src/clustering/entailment';
import { HubUnreachableError } from '../../../src/model/model-load-error';
import { hubUnreachableMessage } from '../../../src/model/model-hub';
import { MockProviderServer } from '../../mock/provider-server';

const SECRET = 'sk-test-hub-0123456789';
const QUESTIONS = ['France', 'Spain', 'Italy', 'Peru'].map((c, i) => ({ id: `q${i}`, question: `What is the capital of ${c}?`, answer: 'x', answers: { [`city ${i}`]: 0.5, [`town ${i}`]: 0.5 } }));

let server: MockProviderServer;
beforeAll(async () => {
  server = await MockProviderServer.start({ questions: QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: q.answers })), apiKey: SECRET });
});
afterAll(() => server?.close());

test('the hub unreachable: clustering stops at the first failure and the run fails once on it', async () => {
  const model = { kind: 'openai' as const, preset: 'openai', baseUrl: `${server.url}/v1`, model: 'gpt-4o-mini' };
  const spec: RunSpec = {
    title: 'hub down',
    dataset: { name: 'capitals', source: 'test', questions: QUESTIONS.map(({ id, question, answer }) => ({ id, question, answer })) },
    models: [model],
    sampling: { n: 4, temperature: 1, maxTokens: 32, prompt: 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".', concurrency: 1 },
    clustering: { method: 'entailment', model: 'someone/nli', allowRemote: true },
    grading: { method: 'alias' },
  };
  const message = hubUnreachableMessage('http://127.0.0.1:9/', 'Failed to fetch');
  let asked = 0;
  const decider: EntailmentDecider = {
    model: 'someone/nli',
    identity: async () => {
      asked++;
      throw new HubUnreachableError(message);
    },
    decide: async () => {
      throw new HubUnreachableError(message);
    },
  };
  const stores = { ...memoryStores(), entailment: new MemoryEntailmentCache() };
  const stages = realStages({ score: (input) => scoreRun(input, { samples: 'answers', B: 20, smooth: false }) });
  const impl = { ...stages, clusterer: () => createEntailmentClusterer({ decider, cache: stores.entailment }) };
  const run = newRun(spec);
  await stores.runs.saveRun(run);
  let last: { errors: { kind: string; message: string }[] } | undefined;
  const done = await executeRun(run.id, { [keyId(model)]: SECRET }, { runs: stores.runs, samples: stores.samples, stageCache: stores.stages, stages: impl, onProgress: (p) => (last = p) }, new AbortController().signal);

  expect(done.status).toBe('failed');
  expect(done.error).toMatchObject({ kind: 'hub-unreachable', message });
  expect(message).toMatch(/^The Hugging Face hub \(127\.0\.0\.1:9\) cannot be reached from this browser: Failed to fetch\. Use exact match, or a shipped model, or download the model while online/);
  // One question asked the model (through the cache's identity); the other three never did.
  expect(asked).toBe(1);
  expect(last!.errors.filter((e) => e.kind === 'hub-unreachable')).toHaveLength(1);
  expect(last!.errors.filter((e) => /entailment failed/.test(e.message))).toEqual([]);
  expect(await stores.runs.getReport(run.id)).toBeUndefined();
});
