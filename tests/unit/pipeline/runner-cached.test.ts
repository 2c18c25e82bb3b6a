import 'fake-indexeddb/auto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStores, type Stores } from '../../../src/store/stores';
import { executeRun, newRun } from '../../../src/pipeline/runner';
import { realStages } from '../../../src/workers/real-stages';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import type { RunSpec } from '../../../src/model/run-spec';
import { MemorySampleCache, type SampleCache } from '../../../src/model/sample-cache';
import { RAW_REPLIES_LIMIT } from '../../../src/pipeline/report-detail';
import { questionKeyBase } from '../../../src/pipeline/sampling';
import { extractSample } from '../../../src/pipeline/extract';
import { MockProviderServer } from '../../mock/provider-server';
import { keyOfSlot } from '../../../src/model/sample-groups';

const QUESTIONS: { id: string; question: string; answer: string; answers: Record<string, number> }[] = [
  { id: 'q0', question: 'What is the capital of France?', answer: 'Paris', answers: { Paris: 0.7, Lyon: 0.3 } },
  { id: 'q1', question: 'What is the capital of Spain?', answer: 'Madrid', answers: { Madrid: 0.5, 'Madrid, Spain': 0.5 } },
  { id: 'q2', question: 'What is the capital of Italy?', answer: 'Rome', answers: { Milan: 0.6, Rome: 0.4 } },
];
let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start({ questions: QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: q.answers })), apiKey: null });
});
afterAll(() => mock?.close());

const spec = (baseUrl: string): RunSpec => ({
  title: 'cached run',
  dataset: { name: 'capitals', source: 'test', questions: QUESTIONS.map(({ id, question, answer }) => ({ id, question, answer })) },
  models: [{ kind: 'openai', preset: 'openai', baseUrl, model: 'gpt-4o-mini' }],
  // 12 samples: keys #10 and #11 sort between #1 and #2, which the range read must place right.
  sampling: { n: 12, temperature: 1, maxTokens: 32, prompt: 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".', concurrency: 2 },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
});
const impl = realStages({ score: (input) => scoreRun(input, { samples: 'raw', B: 50, smooth: false }) });

async function runWith(s: Stores, runSpec: RunSpec, samples: SampleCache = s.samples) {
  const run = newRun(runSpec);
  await s.runs.saveRun(run);
  const done = await executeRun(run.id, {}, { runs: s.runs, samples, stageCache: s.stages, stages: impl }, new AbortController().signal);
  const report = await s.runs.getReport(run.id);
  return { done, models: report?.models };
}

test('a run over a fully pre-filled sample cache requests nothing and gives the report of the run that sampled', async () => {
  const first = await openStores(`cached-a-${Math.random()}`);
  const sampled = await runWith(first, spec(`${mock.url}/v1`));
  expect(sampled.done.status).toBe('done');
  expect(mock.stats().served).toEqual({ q0: 12, q1: 12, q2: 12 });
  // One record per question (model/sample-groups.ts), 12 samples each.
  const records = await first.db.getAll('questionSamples');
  expect(records.map((r) => r.slots.length)).toEqual([12, 12, 12]);
  const stored = records.flatMap((r) => r.slots.map((slot, j) => ({ key: keyOfSlot(r.key, slot), sample: r.samples[j] })));
  expect(stored).toHaveLength(36);

  // The same samples in a fresh database (as after a batch ingest), the mock's address kept so the keys match.
  const second = await openStores(`cached-b-${Math.random()}`);
  await second.samples.put(stored.map(({ key, sample }) => ({ key, sample })));
  await second.samples.flush();
  mock.resetStats();
  const cached = await runWith(second, spec(`${mock.url}/v1`));
  expect(cached.done.status).toBe('done');
  expect(mock.stats().requests).toBe(0);
  expect(cached.done.progress.samples).toEqual({ done: 36, total: 36 });
  expect(cached.models).toEqual(sampled.models);

  // The read path before range reads (one get per key, no storedIndices/getQuestion) gives the same report.
  const third = await openStores(`cached-c-${Math.random()}`);
  await third.samples.put(stored.map(({ key, sample }) => ({ key, sample })));
  await third.samples.flush();
  const keyByKey: SampleCache = { get: (k) => third.samples.get(k), put: (e) => third.samples.put(e) };
  const plain = await runWith(third, spec(`${mock.url}/v1`), keyByKey);
  expect(mock.stats().requests).toBe(0);
  expect(plain.models).toEqual(sampled.models);
  expect(plain.models?.[0].questions.every((q) => q.samples?.length === 12 && q.samples.every((x) => x.raw !== undefined))).toBe(true);
});

test('range reads place every index, ignore indices ≥ n and other questions, and report what is missing', async () => {
  const s = await openStores(`cached-d-${Math.random()}`);
  const model = { config: { kind: 'openai' as const, preset: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } };
  const [a, b] = await Promise.all(QUESTIONS.slice(0, 2).map((q) => questionKeyBase(model, { temperature: 1, maxTokens: 8 }, '{question}', q)));
  const sample = (raw: string) => extractSample(`Answer: ${raw}`, 'stop');
  await s.samples.put([0, 1, 2, 10, 11, 12].map((i) => ({ key: `${a}#${i}`, sample: sample(`a${i}`) })));
  await s.samples.put([{ key: `${a}#007`, sample: sample('bad') }, { key: `${b}#3`, sample: sample('b3') }]);
  await s.samples.flush();
  const [got, none] = await s.samples.getQuestions([a, `${a}0`], 12);
  expect(got.map((x) => x?.answer)).toEqual(['a0', 'a1', 'a2', undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'a10', 'a11']);
  expect(none).toEqual(new Array(12).fill(undefined));
  const [storedA, storedB] = await s.samples.storedIndices([a, b], 12);
  expect(storedA).toEqual(got.map((x) => x !== undefined));
  expect(storedB.slice(0, 4)).toEqual([false, false, false, true]);
});

test('a run over RAW_REPLIES_LIMIT samples keeps answers and confidences but no raw replies in its rows and report', async () => {
  const n = 50;
  const count = Math.floor(RAW_REPLIES_LIMIT / n) + 1;
  const s = await openStores(`cached-e-${Math.random()}`);
  const closed = 'http://127.0.0.1:9/v1';
  const big: RunSpec = {
    ...spec(closed),
    dataset: { name: 'big', source: 'test', questions: Array.from({ length: count }, (_, i) => ({ id: `q${i}`, question: `Question ${i}?`, answer: i % 2 ? 'Paris' : 'Rome' })) },
    sampling: { ...spec(closed).sampling, n },
  };
  // Pre-filled in memory: the get-only fallback path, with every sample present.
  const cache = new MemorySampleCache();
  const model = { config: big.models[0] };
  const settings = { temperature: big.sampling.temperature, maxTokens: big.sampling.maxTokens };
  for (const q of big.dataset.questions) {
    const base = await questionKeyBase(model, settings, big.sampling.prompt, q);
    await cache.put(Array.from({ length: n }, (_, i) => ({ key: `${base}#${i}`, sample: extractSample(`Because.\nAnswer: ${i % 3 ? 'Paris' : 'Rome'}\nConfidence: ${40 + i}%`, 'stop') })));
  }
  const { done, models } = await runWith(s, big, cache);
  expect(done.status).toBe('done');
  expect(done.progress.requests.done).toBe(0);
  expect(done.progress.notes.some((x) => x.includes('raw replies are not kept'))).toBe(true);
  const questions = models?.[0].questions ?? [];
  expect(questions).toHaveLength(count);
  expect(questions.every((q) => q.samples?.length === n && q.samples.every((x) => x.raw === undefined && (x.answer === 'Paris' || x.answer === 'Rome')))).toBe(true);
  expect(questions[0].samples?.[1].confidence).toBeCloseTo(0.41, 12);
}, 120_000);

test('rows of questions sampled wholly in this execution come from memory: no sample is read back from the cache', async () => {
  const s = await openStores(`memory-rows-${Math.random()}`);
  let valuesRead = 0;
  // Key-only range reads (storedIndices) stay allowed; reading sample values back is what is counted.
  const counting: SampleCache = {
    get: (keys) => ((valuesRead += keys.length), s.samples.get(keys)),
    put: (entries) => s.samples.put(entries),
    getQuestions: (bases, n) => ((valuesRead += bases.length * n), s.samples.getQuestions!(bases, n)),
    storedIndices: s.samples.storedIndices ? (bases, n) => s.samples.storedIndices!(bases, n) : undefined,
  };
  const { done, models } = await runWith(s, spec(`${mock.url}/v1`), counting);
  expect(done.status).toBe('done');
  expect(valuesRead).toBe(0);
  // The same rows as when every sample is read back from the cache.
  const reread = await runWith(s, spec(`${mock.url}/v1`));
  expect(valuesRead).toBe(0);
  expect(reread.models).toEqual(models);
});
