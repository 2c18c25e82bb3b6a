/** A run's judge clustering through batch mode, over fake-indexeddb stores and the loopback mock. */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRunJudge, storeRunJudgeResults, submitRunJudge } from '../../../src/batch/judge-run.ts';
import { batchServiceFor } from '../../../src/batch/service-for-model.ts';
import { dedupeAnswers, expandClasses } from '../../../src/clustering/judge-clusterer.ts';
import { DEFAULT_GENERATION_PROMPT } from '../../../src/pipeline/prompts.ts';
import type { RunSpec } from '../../../src/model/run-spec.ts';
import { clusteringKey } from '../../../src/pipeline/stage-cache-keys.ts';
import { questionKeys, runSampling } from '../../../src/pipeline/sampling.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import { openStores } from '../../../src/store/stores.ts';
import { MockProviderServer } from '../../mock/provider-server.ts';
import { successLine } from './fixtures.ts';

const KEY = 'judge-key';
let mock: MockProviderServer;
const QS = [
  { id: 'a', question: 'Capital of France?', answer: 'Paris' },
  { id: 'b', question: 'Capital of Italy?', answer: 'Rome' },
  { id: 'c', question: 'Capital of Japan?', answer: 'Tokyo' },
];

beforeAll(async () => {
  mock = await MockProviderServer.start({
    apiKey: KEY,
    questions: [
      { match: 'Capital of France?', id: 'a', answers: { Paris: 1, Lyon: 1 } },
      { match: 'Capital of Italy?', id: 'b', answers: { Rome: 1, Milan: 1 } },
      { match: 'Capital of Japan?', id: 'c', answers: { Tokyo: 1 } },
    ],
  });
});
afterAll(() => mock.close());

function specOf(): RunSpec {
  const model = { kind: 'openai' as const, preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' };
  return {
    title: 't', dataset: { name: 'd', source: 'test', questions: QS }, models: [model],
    sampling: { n: 6, temperature: 1, maxTokens: 200, prompt: DEFAULT_GENERATION_PROMPT, concurrency: 4 },
    clustering: { method: 'judge', judge: { ...model, model: 'gpt-4o' } }, grading: { method: 'alias' },
  };
}

describe('judge clustering of a run through batch mode', () => {
  it('plans only sampled, uncached questions with more than one distinct answer; stores results under the runner keys', async () => {
    const spec = specOf();
    const stores = await openStores(`judge-run-${Math.random()}`);
    let plan = await planRunJudge(spec, stores.samples, stores.stages);
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.counts).toEqual({ rows: 0, cached: 0, unsampled: 3 });

    const provider = createProvider({ ...spec.models[0], apiKey: KEY }, { http: { sleep: async () => undefined } });
    const sampled = await runSampling({ questions: QS, provider, settings: { temperature: 1, maxTokens: 200 }, n: 6, cache: stores.samples });
    expect(sampled.state).toBe('done');
    await stores.samples.flush();
    plan = await planRunJudge(spec, stores.samples, stores.stages);
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.counts).toEqual({ rows: 3, cached: 0, unsampled: 0 });
    // Question c has one distinct answer: no judge needed.
    expect(plan.value.lines.map((l) => l.questionId).sort()).toEqual(['a', 'b']);

    const [la] = plan.value.lines;
    const report = await storeRunJudgeResults(spec, plan.value.set, stores.stages, successLine('openai', la.customId, ['{"clusters":[{"label":"X","members":[0]},{"label":"Y","members":[1]}]}']), 'judge_out.jsonl');
    expect(report).toMatchObject({ stored: 1, failed: 0, problems: [] });
    const again = await planRunJudge(spec, stores.samples, stores.stages);
    if (!again.ok) throw new Error('unexpected');
    expect(again.value.counts.cached).toBe(1);
    expect(again.value.lines.map((l) => l.questionId)).toEqual(['b']);
    // Under the key the runner's cluster stage looks up: (question, the stored answers, the clustering spec).
    const q = QS.find((x) => x.id === la.questionId)!;
    const stored = await stores.samples.get(await questionKeys({ config: spec.models[0] }, { temperature: 1, maxTokens: 200 }, DEFAULT_GENERATION_PROMPT, q, 6));
    const [hit] = await stores.stages.getClusterings([await clusteringKey(q, stored.map((x) => x!.answer), spec.clustering)]);
    const { indexOf } = dedupeAnswers(stored.map((x) => x!.answer));
    expect(hit?.result).toEqual({ ok: true, classes: expandClasses([{ label: 'X', members: [0] }, { label: 'Y', members: [1] }], indexOf) });
    expect(hit?.result.ok && hit.result.classes.flatMap((c) => c.members).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('submits to the mock batch API; replies that are not partitions are left for the interactive judge', async () => {
    const spec = specOf();
    const stores = await openStores(`judge-run-${Math.random()}`);
    const provider = createProvider({ ...spec.models[0], apiKey: KEY }, { http: { sleep: async () => undefined } });
    await runSampling({ questions: QS, provider, settings: { temperature: 1, maxTokens: 200 }, n: 6, cache: stores.samples });
    await stores.samples.flush();
    const plan = await planRunJudge(spec, stores.samples, stores.stages);
    if (!plan.ok) throw new Error(plan.error.message);
    const before = mock.batches.created.openai;
    const r = await submitRunJudge(spec, plan.value, stores.stages, batchServiceFor(plan.value.set.model, KEY), { intervalMs: 1, sleep: async () => undefined });
    expect(mock.batches.created.openai).toBe(before + 1);
    // The mock answers like a sampled model, not with a partition: both fail and nothing is cached.
    expect(r).toMatchObject({ stored: 0, failed: 2 });
    const again = await planRunJudge(spec, stores.samples, stores.stages);
    if (!again.ok) throw new Error('unexpected');
    expect(again.value.lines).toHaveLength(2);
  });
});
