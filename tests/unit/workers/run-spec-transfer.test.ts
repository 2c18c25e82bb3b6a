/** The run spec as the page posts it to the run worker: JSON in parts, read back as it was sent. */
import 'fake-indexeddb/auto';
import { afterAll, expect, test } from 'vitest';
import * as Comlink from 'comlink';
import { isPackedRunSpec, packRunSpec, unpackRunSpec } from '../../../src/workers/run-spec-transfer';
import { createRunWorkerApi } from '../../../src/workers/run-worker-api';
import { openStores } from '../../../src/store/stores';
import type { RunWorkerApi } from '../../../src/workers/protocol';
import type { RunSpec } from '../../../src/model/run-spec';

const spec = (count: number): RunSpec => ({
  title: 'Prüfung « 测试 » 🚀',
  dataset: {
    name: 'mixed',
    source: 'test',
    subset: { of: 5000, seed: 7, ids: ['q0', 'q1'] },
    questions: Array.from({ length: count }, (_, i) => ({
      id: `q${i}`,
      question: `Question ${i}: "quoted", a\nnewline, a tab\t, a backslash \\ and \u2028`,
      answer: i % 2 ? 'Paris' : 'B',
      ...(i % 3 === 0 ? { aliases: ['Paris, France', ''] } : {}),
      ...(i % 5 === 0 ? { options: ['Lyon', 'Paris', 'Nice'] } : {}),
    })),
  },
  models: [{ kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', concurrency: 4, timeoutMs: 30000 }],
  sampling: { n: 5, temperature: 0.7, topP: 0.95, maxTokens: 64, prompt: 'Q: {question}', concurrency: 2 },
  clustering: { method: 'embedding', model: 'm', threshold: 0.85 },
  grading: { method: 'alias' },
});

test('a packed spec reads back equal to the spec, its questions in order across parts', async () => {
  const original = spec(2503);
  const packed = await packRunSpec(original, { partQuestions: 500, sliceMs: 0 });
  expect(isPackedRunSpec(packed)).toBe(true);
  // Only strings cross: one for the settings, one per part of at most 500 questions.
  expect(packed.questions).toHaveLength(6);
  expect([packed.spec, ...packed.questions].every((p) => typeof p === 'string')).toBe(true);
  expect(JSON.parse(packed.spec).dataset.questions).toEqual([]);
  // The posted copy (a structured clone, as postMessage makes) unpacks to the very spec.
  expect(unpackRunSpec(structuredClone(packed))).toEqual(original);
  // An empty dataset and the default part size round-trip too; a plain spec passes through.
  expect(unpackRunSpec(await packRunSpec(spec(0)))).toEqual(spec(0));
  expect(unpackRunSpec(await packRunSpec(spec(3)))).toEqual(spec(3));
  const plain = spec(2);
  expect(unpackRunSpec(plain)).toBe(plain);
});

test('damaged parts are refused naming which part and why', async () => {
  const packed = await packRunSpec(spec(10), { partQuestions: 4 });
  expect(() => unpackRunSpec({ ...packed, questions: [packed.questions[0], '[{"id":', packed.questions[2]] })).toThrow(/question part 2 of 3 is not JSON/);
  expect(() => unpackRunSpec({ ...packed, questions: ['{}'] })).toThrow(/question part 1 of 1 is not a list/);
  expect(() => unpackRunSpec({ ...packed, spec: '{"title":"x"}' })).toThrow(/the settings have no dataset/);
  expect(() => unpackRunSpec({ ...packed, spec: 42 as unknown as string })).toThrow(/the settings is not text/);
});

const ports: MessagePort[] = [];
afterAll(() => ports.forEach((p) => p.close()));

test('the run worker stores the run a packed spec describes, and answers a damaged one with why', async () => {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const dbName = `spec-transfer-${Math.random()}`;
  Comlink.expose(createRunWorkerApi({ dbName, crossTab: null }), port1);
  const remote = Comlink.wrap<RunWorkerApi>(port2);
  const original = spec(1200);
  const started = await remote.start(await packRunSpec(original, { partQuestions: 250 }), {});
  expect(started.ok).toBe(true);
  const status = started.ok ? await remote.status(started.value.runId) : undefined;
  // The stored run holds every question; its listing, which the page receives, only their number.
  const stored = started.ok ? await (await openStores(dbName)).runs.getRun(started.value.runId) : undefined;
  expect(stored?.spec).toEqual(original);
  expect(status?.ok && status.value.spec).toEqual({ ...original, dataset: { ...original.dataset, questions: [] } });
  expect(status?.ok && status.value.questionCount).toBe(1200);
  // Its provider is a closed port: stopped here rather than left failing requests after the test.
  if (started.ok) await remote.cancel(started.value.runId);
  const packed = await packRunSpec(original);
  const refused = await remote.start({ ...packed, questions: ['not json'] }, {});
  expect(refused).toMatchObject({ ok: false, error: { kind: 'bad-request', where: 'run settings', message: expect.stringMatching(/question part 1 of 1 is not JSON/) } });
});
