/**
 * p(True)'s requests in the run's stored usage receipts: a run with p(True) against the loopback
 * mock, stopped once sampling and p(True) are done, its IndexedDB (fake-indexeddb) closed and
 * opened again as a reloaded page does, then resumed. The counters after the reload (requests,
 * tokens, cost) equal those before it and the mock's own count of what was sent, whether the
 * run's last checkpoint survived or the page went away before it was written.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStores, type Stores } from '../../../src/store/stores';
import { executeRun, newRun } from '../../../src/pipeline/runner';
import type { PhaseEvent } from '../../../src/pipeline/run-meter';
import { realStages } from '../../../src/workers/real-stages';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { keyId, type RunProgress, type RunSpec } from '../../../src/model/run-spec';
import { MockProviderServer, type ParsedRequest } from '../../mock/provider-server';

const KEY = 'sk-ptrue-receipts-0123456789';
const QUESTIONS: { id: string; question: string; answer: string; answers: Record<string, number> }[] = [
  { id: 'fr', question: 'What is the capital of France?', answer: 'Paris', answers: { Paris: 3, Lyon: 1 } },
  { id: 'es', question: 'What is the capital of Spain?', answer: 'Madrid', answers: { Madrid: 1 } },
];
const PRICES = { 'groq/m': { input: 0.15, output: 0.6 } };

let mock: MockProviderServer;
let verdicts = 0;
// Verdicts without logprobs (Groq returns none): each question's p(True) is read from its sampled verdicts.
const responder = (req: ParsedRequest) => (req.user.includes('Is the possible answer') ? (verdicts++ % 3 === 2 ? 'False' : 'True') : undefined);

beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: KEY, questions: QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: q.answers, confidence: 70 })) }, { responder });
});
afterAll(() => mock?.close());

const model = () => ({ kind: 'openai' as const, preset: 'groq', baseUrl: `${mock.url}/v1`, model: 'm' });
const spec = (): RunSpec => ({
  title: 'p(True) receipts',
  dataset: { name: 'capitals', source: 'test', questions: QUESTIONS.map(({ id, question, answer }) => ({ id, question, answer })) },
  models: [model()],
  sampling: { n: 4, temperature: 1, maxTokens: 32, prompt: 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".', concurrency: 2, pTrue: { samples: 5, brainstorm: false } },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
});
const stages = realStages({ score: (input) => scoreRun(input, { samples: 'answers', B: 20, smooth: false }) });
const deps = (s: Stores, onPhase?: (e: PhaseEvent) => void) => ({ runs: s.runs, samples: s.samples, stageCache: s.stages, stages, prices: PRICES, ...(onPhase ? { onPhase } : {}) });
const spent = (p: RunProgress) => ({ requests: p.requests.done, failed: p.requests.failed, tokens: p.tokens, cost: p.cost });

/** A run paused as the cluster stage begins (sampling and p(True) done), then its database closed and opened again. */
async function pausedThenReloaded(name: string) {
  const first = await openStores(name);
  const run = newRun(spec());
  await first.runs.saveRun(run);
  const ctl = new AbortController();
  const paused = await executeRun(run.id, { [keyId(model())]: KEY }, deps(first, (e) => e.type === 'enter' && e.stage === 'cluster' && ctl.abort('pause')), ctl.signal);
  expect(paused.status).toBe('paused');
  await first.samples.flush();
  first.db.close();
  return { runId: run.id, before: spent(paused.progress), again: await openStores(name) };
}

const resume = (s: Stores, runId: string) => executeRun(runId, { [keyId(model())]: KEY }, deps(s), new AbortController().signal);

test('after a reload, a resumed run with p(True) counts what its p(True) requests spent, as before the reload', async () => {
  mock.resetStats();
  verdicts = 0;
  const { runId, before, again } = await pausedThenReloaded(`p-true-receipts-a-${Math.random()}`);
  const sent = mock.stats().requests;
  // Four samples a question, then five verdicts each (one reply per request): every one counted live.
  expect(before.requests).toBe(sent);
  expect(before.requests).toBeGreaterThan(8);
  expect(before.cost).toBeGreaterThan(0);
  expect(spent((await again.runs.getRun(runId))!.progress)).toEqual(before);

  const resumed = await resume(again, runId);
  expect(resumed.status).toBe('done');
  // Everything was cached: nothing more sent, nothing more spent.
  expect(mock.stats().requests).toBe(sent);
  const after = spent(resumed.progress);
  expect(after.requests).toBe(before.requests);
  expect(after.failed).toBe(before.failed);
  expect(after.tokens).toEqual(before.tokens);
  expect(after.cost).toBeCloseTo(before.cost!, 12);
});

test('a page that went away before its last checkpoint: the counters read back from the receipts still hold p(True)', async () => {
  mock.resetStats();
  verdicts = 0;
  const { runId, before, again } = await pausedThenReloaded(`p-true-receipts-b-${Math.random()}`);
  const sent = mock.stats().requests;
  // The stored record keeps the counters of the run's start, as a checkpoint never written leaves them.
  const stored = (await again.runs.getRun(runId))!;
  await again.runs.saveRun({ ...stored, progress: { ...stored.progress, requests: { done: 0, failed: 0, retrying: 0 }, tokens: { input: 0, output: 0 }, cost: 0 } });

  const resumed = await resume(again, runId);
  expect(resumed.status).toBe('done');
  expect(mock.stats().requests).toBe(sent);
  const after = spent(resumed.progress);
  expect(after.requests).toBe(sent);
  expect(after.tokens).toEqual(before.tokens);
  expect(after.cost).toBeCloseTo(before.cost!, 12);
});
