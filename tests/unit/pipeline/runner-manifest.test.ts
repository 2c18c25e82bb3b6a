/**
 * A report made by an app run carries the same manifest `semece score --report` writes
 * (model/report-manifest.ts): a hash per question of its samples, classes and grade, and one of
 * the settings, so `semece verify` and the Verify panel can check it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { memoryStores } from '../../mock/memory-stores';
import { executeRun, newRun } from '../../../src/pipeline/runner';
import { realStages } from '../../../src/workers/real-stages';
import { keyId, type RunSpec } from '../../../src/model/run-spec';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { MANIFEST_METHOD, questionHash, reportManifest, settingsHash } from '../../../src/model/report-manifest';
import { MockProviderServer } from '../../mock/provider-server';

const KEY = 'sk-manifest-test-0123456789';
const QUESTIONS: { id: string; question: string; answer: string; answers: Record<string, number> }[] = [
  { id: 'q0', question: 'What is the capital of France?', answer: 'Paris', answers: { Paris: 1 } },
  { id: 'q1', question: 'What is the capital of Spain?', answer: 'Madrid', answers: { Madrid: 0.5, Barcelona: 0.5 } },
];

let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: KEY, questions: QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: q.answers })) });
});
afterAll(() => mock?.close());

test("an app run's report carries the manifest of its questions and settings", async () => {
  const model = { kind: 'openai' as const, preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' };
  const spec: RunSpec = {
    title: 'manifest run',
    dataset: { name: 'capitals', source: 'test', questions: QUESTIONS.map(({ id, question, answer }) => ({ id, question, answer })) },
    models: [model],
    sampling: { n: 4, temperature: 1, maxTokens: 32, prompt: 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".', concurrency: 2 },
    clustering: { method: 'exact' },
    grading: { method: 'alias' },
  };
  const s = await memoryStores();
  const run = newRun(spec);
  await s.runs.saveRun(run);
  const impl = realStages({ score: (input) => scoreRun(input, { samples: 'answers', B: 20, smooth: false }) });
  const done = await executeRun(run.id, { [keyId(model)]: KEY }, { runs: s.runs, samples: s.samples, stageCache: s.stages, stages: impl }, new AbortController().signal);
  expect(done.status).toBe('done');
  const report = (await s.runs.getReport(run.id))!;
  const manifest = report.manifest!;
  expect(manifest.method).toBe(MANIFEST_METHOD);
  expect(manifest.settings).toBe(await settingsHash(report.settings));
  expect(manifest.models.map((m) => m.model)).toEqual(report.models.map((m) => m.model));
  const questions = report.models[0].questions;
  expect(Object.keys(manifest.models[0].questions).sort()).toEqual(['q0', 'q1']);
  for (const q of questions) expect(manifest.models[0].questions[q.id]).toBe(await questionHash(q));
  // Exactly what the CLI computes for the same document.
  expect(manifest).toEqual(await reportManifest(report));
});
