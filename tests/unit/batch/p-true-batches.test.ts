/**
 * p(True) batches (src/batch/p-true-batches.ts) against the loopback mock's batch endpoints, as the
 * app's batch worker runs them: the set made from stored samples, its replies stored with usage
 * receipts under the run's key, read back by the direct path (addPTrue) without a request; a
 * request failing inside a batch asked again in the next round; a line of another kind named.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchServiceFor } from '../../../src/batch/service-for-model.ts';
import { SampleRequestSet } from '../../../src/batch/request-set.ts';
import { submitSampleBatches } from '../../../src/batch/sample-batches.ts';
import { pTrueSetForSamples } from '../../../src/batch/p-true-request-set.ts';
import { ingestPTrueResults, submitPTrueBatches } from '../../../src/batch/p-true-batches.ts';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import type { SampledRow } from '../../../src/model/rows.ts';
import { addPTrue } from '../../../src/pipeline/p-true.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import { MockProviderServer, type ParsedRequest } from '../../mock/provider-server.ts';
import { QUESTIONS, SETTINGS, successLine } from './fixtures.ts';

const KEY = 'batch-secret-key-123';
const ANSWERS: Record<string, Record<string, number>> = { q1: { Paris: 3, Lyon: 1 }, q2: { Shakespeare: 1 }, q3: { '8': 2, '6': 1 } };
const RECEIPT = 'run-1|openai/gpt-4o-mini';
let mock: MockProviderServer;
let pTrueAsked = 0;

// A verdict with logprobs: P(True) 0.6 for every question.
function responder(req: ParsedRequest) {
  if (!req.user.includes('Is the possible answer')) return undefined;
  pTrueAsked += 1;
  return { text: 'True', logprobs: [{ token: 'True', logprob: Math.log(0.6), top_logprobs: [{ token: 'True', logprob: Math.log(0.6) }, { token: 'False', logprob: Math.log(0.4) }] }] };
}

beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: KEY, questions: QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: ANSWERS[q.id] })) }, { responder });
});
afterAll(() => mock.close());
beforeEach(() => {
  pTrueAsked = 0;
  mock.resetStats();
  mock.batches.configure({});
});

const model = () => ({ kind: 'openai' as const, preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' });
const noWait = { intervalMs: 1, sleep: async () => undefined };
const SPEC = { samples: 3, brainstorm: true };

/** Every sample stored through a sample batch; the set and the rows the run would make of them. */
async function sampled(cache: MemorySampleCache) {
  const made = await SampleRequestSet.create({ model: model(), settings: SETTINGS, n: 4, questions: QUESTIONS });
  if (!made.ok) throw new Error(made.error.message);
  const s = await submitSampleBatches({ set: made.value, service: batchServiceFor(model(), KEY), cache, poll: noWait });
  expect(s.state).toBe('done');
  const stored = await Promise.all(QUESTIONS.map(async (q) => cache.get(await made.value.keysOf(q))));
  const rows = QUESTIONS.map((q, i) => ({ id: q.id, question: q.question, answer_extracted: stored[i].map((x) => x!.answer) }) as SampledRow);
  return { set: made.value, rows };
}

describe('p(True) batches', () => {
  it('stores replies with receipts under the direct path\'s keys: the direct path then reads every value and sends nothing', async () => {
    const cache = new MemorySampleCache();
    const { set, rows } = await sampled(cache);
    const pSet = await pTrueSetForSamples(set, SPEC, cache);
    expect(pSet.counts.questions).toBe(QUESTIONS.length);
    const r = await submitPTrueBatches({ set: pSet, service: batchServiceFor(model(), KEY), cache, receiptKey: RECEIPT, poll: noWait });
    expect(r.state).toBe('done');
    expect(r.missing).toBe(0);
    expect(pTrueAsked).toBe(QUESTIONS.length);
    expect(r.usage.requests).toBe(QUESTIONS.length);
    expect(await cache.usage(RECEIPT)).toEqual({ requests: QUESTIONS.length, failed: 0, input: r.usage.inputTokens, output: r.usage.outputTokens });

    const served = JSON.stringify(mock.stats().served);
    const p = await addPTrue(rows, { provider: createProvider({ ...model(), apiKey: KEY }), cache, spec: SPEC });
    expect(p).toMatchObject({ requests: 0, fromCache: QUESTIONS.length, methods: { logprobs: QUESTIONS.length, sampled: 0, none: 0 } });
    expect(rows.map((x) => x.p_true)).toEqual(QUESTIONS.map(() => expect.closeTo(0.6, 12)));
    expect(JSON.stringify(mock.stats().served)).toBe(served);
    // And a second batch run plans nothing.
    const again = await submitPTrueBatches({ set: pSet, service: batchServiceFor(model(), KEY), cache, poll: noWait });
    expect(again.batches).toEqual([]);
  });

  it('a request failing inside a batch is asked in the next round, its failure counted in the receipts', async () => {
    const cache = new MemorySampleCache();
    const { set } = await sampled(cache);
    mock.batches.configure({ failEvery: 2 });
    const pSet = await pTrueSetForSamples(set, SPEC, cache);
    const rounds: number[] = [];
    const r = await submitPTrueBatches({ set: pSet, service: batchServiceFor(model(), KEY), cache, receiptKey: RECEIPT, poll: noWait, onEvent: (e) => e.type === 'round' && rounds.push(e.requests) });
    expect(rounds).toEqual([3, 1]);
    expect(r).toMatchObject({ state: 'done', missing: 0 });
    expect(await cache.usage(RECEIPT)).toMatchObject({ requests: 3, failed: 1 });
  });

  it('a sampling line in a p(True) result file is named, with its line, and stores nothing', async () => {
    const cache = new MemorySampleCache();
    const { set } = await sampled(cache);
    const pSet = await pTrueSetForSamples(set, SPEC, cache);
    const planned = [];
    for await (const q of pSet.requests(cache)) planned.push(q);
    const sampleId = 'semece-0123abcd-0123456789ab-0-1';
    const text = `${successLine('openai', planned[0].customId, ['True'])}\n${successLine('openai', sampleId, ['True'])}\n`;
    const report = await ingestPTrueResults(pSet, text, { file: 'p.jsonl', cache });
    expect(report.stored).toBe(1);
    expect(report.problems).toEqual([expect.objectContaining({ file: 'p.jsonl', line: 2, message: expect.stringContaining('is not a p(True) request: a sampling request') })]);
  });
});
