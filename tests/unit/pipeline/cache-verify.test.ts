/**
 * A saved run's report verified against the samples held in the caches it was made from
 * (pipeline/cache-verify.ts): all match after the run; a sample changed in the cache names its
 * question; a report without a manifest says why nothing can be checked. A grade a person
 * overrode on the report page (applyGradeOverride, the manifest as the run made it) is listed as
 * an override, not a difference; a changed sample of that question, or a grade changed without
 * the override flag, is still a difference.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { memoryStores } from '../../mock/memory-stores';
import { executeRun, newRun } from '../../../src/pipeline/runner';
import { realStages } from '../../../src/workers/real-stages';
import { keyId, type RunSpec } from '../../../src/model/run-spec';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { verifyFromCaches } from '../../../src/pipeline/cache-verify';
import { applyGradeOverride } from '../../../src/pipeline/overrides-recompute';
import { reportManifest } from '../../../src/model/report-manifest';
import type { ReportDocument } from '../../../src/model/report';
import { questionKeyBase } from '../../../src/pipeline/sampling';
import { MockProviderServer } from '../../mock/provider-server';

const KEY = 'sk-cache-verify-0123456789';
const QUESTIONS: { id: string; question: string; answer: string; answers: Record<string, number> }[] = [
  { id: 'q0', question: 'What is the capital of France?', answer: 'Paris', answers: { Paris: 1 } },
  { id: 'q1', question: 'What is the capital of Spain?', answer: 'Madrid', answers: { Madrid: 0.5, Barcelona: 0.5 } },
];
const PROMPT = 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".';

let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: KEY, questions: QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: q.answers })) });
});
afterAll(() => mock?.close());

test('a saved run matches its cache; a changed sample names its question', async () => {
  const model = { kind: 'openai' as const, preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' };
  const spec: RunSpec = {
    title: 'cache verify run',
    dataset: { name: 'capitals', source: 'test', questions: QUESTIONS.map(({ id, question, answer }) => ({ id, question, answer })) },
    models: [model],
    sampling: { n: 4, temperature: 1, maxTokens: 32, prompt: PROMPT, concurrency: 2 },
    clustering: { method: 'exact' },
    grading: { method: 'alias' },
  };
  const s = await memoryStores();
  const run = newRun(spec);
  await s.runs.saveRun(run);
  const impl = realStages({ score: (input) => scoreRun(input, { samples: 'answers', B: 20, smooth: false }) });
  expect((await executeRun(run.id, { [keyId(model)]: KEY }, { runs: s.runs, samples: s.samples, stageCache: s.stages, stages: impl }, new AbortController().signal)).status).toBe('done');
  const report = (await s.runs.getReport(run.id))!;
  const caches = { samples: s.samples, clusterings: s.stages };
  expect(await verifyFromCaches(report, spec, caches)).toEqual({ kind: 'match', questions: 2, overrides: [] });

  // A person overrides q1's grade on the report page: the samples still match, the override is listed.
  const q1 = report.models[0].questions.find((q) => q.id === 'q1')!;
  const to = q1.grade === 'CORRECT' ? 'INCORRECT' : 'CORRECT';
  const applied = applyGradeOverride(report, 0, 'q1', to);
  if (!applied.ok) throw new Error(applied.error.message);
  const overridden: ReportDocument = applied.value;
  expect(overridden.manifest).toEqual(report.manifest);
  const label = report.models[0].model;
  expect(await verifyFromCaches(overridden, spec, caches)).toEqual({ kind: 'match', questions: 2, overrides: [{ model: label, id: 'q1', from: q1.grade, to }] });
  // A manifest made with the override in place (a run scored with it) matches as it is.
  expect(await verifyFromCaches({ ...overridden, manifest: await reportManifest(overridden) }, spec, caches)).toEqual({ kind: 'match', questions: 2, overrides: [{ model: label, id: 'q1', to }] });
  // The same grade change without the flag is not an override: q1 differs.
  const unflagged = structuredClone(overridden);
  delete unflagged.models[0].questions.find((q) => q.id === 'q1')!.overridden;
  const silent = await verifyFromCaches(unflagged, spec, caches);
  expect(silent.kind === 'differ' && silent.questions.map((q) => q.id)).toEqual(['q1']);

  // Change q1's second sample in the cache, as a tampered store would hold it.
  const { temperature, topP, maxTokens } = spec.sampling;
  const base = await questionKeyBase({ config: model }, { temperature, topP, maxTokens }, PROMPT, spec.dataset.questions[1]);
  const [stored] = await s.samples.get([`${base}#1`]);
  expect(stored).toBeDefined();
  await s.samples.put([{ key: `${base}#1`, sample: { ...stored!, answer: 'Lisbon' } }]);
  const after = await verifyFromCaches(report, spec, caches);
  expect(after.kind).toBe('differ');
  expect(after.kind === 'differ' && after.questions.map((q) => q.id)).toEqual(['q1']);
  // The overridden report against the changed cache: q1 differs all the same, and is still listed as overridden.
  expect(await verifyFromCaches(overridden, spec, caches)).toMatchObject({ kind: 'differ', questions: [{ id: 'q1' }], overrides: [{ id: 'q1', to }] });

  expect((await verifyFromCaches({ ...report, manifest: undefined }, spec, caches)).kind).toBe('error');
});
