/**
 * A run's report records the price the run metered each model at (ModelReport.price): the user's
 * table as the run was given it, not the defaults; it survives the report's own schema; a model
 * the table has no price for gets none (the report's views then fall back to the defaults).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoryStores } from '../../mock/memory-stores';
import { executeRun, newRun } from '../../../src/pipeline/runner';
import { realStages } from '../../../src/workers/real-stages';
import { keyId, type RunSpec } from '../../../src/model/run-spec';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { MockProviderServer } from '../../mock/provider-server';
import { parseReport } from '../../../src/formats/report-import';
import { reportToJson } from '../../../src/formats/report-export';
import { DEFAULT_PRICES, type PriceTable } from '../../../src/model/cost';

const SECRET = 'sk-zq81xv72wp93-run-prices';
const QUESTIONS = [{ id: 'fr', question: 'What is the capital of France?', answer: 'Paris' }];

let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: SECRET, questions: [{ match: QUESTIONS[0].question, id: 'fr', answers: { Paris: 1 } }] });
});
afterAll(async () => {
  await mock?.close();
});

const model = () => ({ kind: 'openai' as const, preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' });
const spec = (): RunSpec => ({
  title: 'priced run',
  dataset: { name: 'one', source: 'test', questions: QUESTIONS },
  models: [model()],
  sampling: { n: 3, temperature: 1, maxTokens: 32, prompt: 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".', concurrency: 1 },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
});

async function reportWith(prices: PriceTable | undefined) {
  const s = await memoryStores();
  const run = newRun(spec());
  await s.runs.saveRun(run);
  const stages = realStages({ score: (input) => scoreRun(input, { samples: 'answers', B: 20, smooth: false }) });
  const done = await executeRun(run.id, { [keyId(model())]: SECRET }, { runs: s.runs, samples: s.samples, stageCache: s.stages, stages, ...(prices ? { prices } : {}) }, new AbortController().signal);
  expect(done.status, JSON.stringify(done.error)).toBe('done');
  return (await s.runs.getReport(run.id))!;
}

describe('the report records the run’s prices', () => {
  test('the user’s override, not the default, and it survives the schema', async () => {
    const mine = { input: 0.2, output: 0.9 };
    expect(DEFAULT_PRICES['openai/gpt-4o-mini']).not.toEqual(mine);
    const report = await reportWith({ ...DEFAULT_PRICES, 'openai/gpt-4o-mini': mine });
    expect(report.models[0].price).toEqual(mine);
    const back = parseReport(reportToJson(report));
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.models[0].price).toEqual(mine);
  });

  test('no price in the table, or no table: none recorded', async () => {
    expect((await reportWith({ 'anthropic/': { input: 1, output: 1 } })).models[0].price).toBeUndefined();
    expect((await reportWith(undefined)).models[0].price).toBeUndefined();
  });

  test('the schema refuses a negative price', async () => {
    const report = await reportWith({ 'openai/': { input: 1, output: 1 } });
    report.models[0].price = { input: -1, output: 1 };
    expect(parseReport(reportToJson(report)).ok).toBe(false);
  });
});
