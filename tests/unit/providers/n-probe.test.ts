import { afterEach, describe, expect, it } from 'vitest';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import { runSampling } from '../../../src/pipeline/sampling.ts';
import { N_PROBE_REFUSED_NOTE } from '../../../src/providers/n-probe.ts';
import type { Question } from '../../../src/model/rows.ts';
import { type MockConfig, MockProviderServer } from '../../mock/provider-server.ts';
import { KEY, providerFor } from './helpers.ts';

const QUESTIONS: Question[] = Array.from({ length: 6 }, (_, i) => ({ id: `q${i}`, question: `Mock question number ${i}?`, answer: `A${i}` }));
const SETTINGS = { temperature: 1, topP: 1, maxTokens: 100 };
const N = 5;

let mock: MockProviderServer;
afterEach(async () => {
  await mock.close();
});

/** Samples every question N times from the "custom" preset (or another) with 4 requests at once. */
async function sampleFrom(config: MockConfig, preset = 'custom') {
  mock = await MockProviderServer.start({
    apiKey: KEY,
    latencyMs: 5,
    questions: QUESTIONS.map((q, i) => ({ match: q.question, id: q.id, answers: { [`A${i}`]: 2, [`B${i}`]: 1 }, confidence: 70 })),
    ...config,
  });
  const { provider } = providerFor(mock, 'openai', { preset, model: 'some-model' });
  const cache = new MemorySampleCache();
  const result = await runSampling({ questions: QUESTIONS, provider, settings: SETTINGS, n: N, cache, concurrency: 4 });
  return { provider, result, cache, stats: mock.stats() };
}

describe('samples per request on a server the table does not know', () => {
  it('keeps n > 1 when the server honours it: one request per question', async () => {
    const { provider, result, stats } = await sampleFrom({});
    expect(result.state).toBe('done');
    expect(stats.requests).toBe(QUESTIONS.length);
    expect(provider.maxN(SETTINGS)).toBe(128);
    expect(provider.notes()).toEqual([]);
  });

  it('falls back to one reply per request when the reply has fewer choices, and makes up the rest', async () => {
    const { provider, result, stats, cache } = await sampleFrom({ maxN: { openai: 1 } });
    expect(result.state).toBe('done');
    expect(cache.map.size).toBe(QUESTIONS.length * N);
    for (const q of QUESTIONS) expect(stats.served[q.id], q.id).toBe(N);
    expect(stats.requests).toBe(QUESTIONS.length * N);
    expect(provider.maxN(SETTINGS)).toBe(1);
    expect(result.notes.join(' ')).toMatch(/got 1: n limited to 1/);
  });

  it('asks with n > 1 once only, not once per concurrent request, when a 400 refuses n', async () => {
    const { provider, result, stats } = await sampleFrom({ rejectMultiple: true });
    expect(result.state).toBe('done');
    // Four requests at once, but the first several-reply request went alone: one refusal in all.
    expect(stats.byStatus['400']).toBe(1);
    expect(provider.maxN(SETTINGS)).toBe(1);
    for (const q of QUESTIONS) expect(stats.served[q.id], q.id).toBe(N);
  });

  it('reads a 400 in the server’s own words during the probe as a refusal of n', async () => {
    const { provider, result, stats } = await sampleFrom({ rejectMultiple: 'Invalid request' });
    expect(result.state).toBe('done');
    expect(stats.byStatus['400']).toBe(1);
    expect(provider.maxN(SETTINGS)).toBe(1);
    expect(result.notes).toContain(N_PROBE_REFUSED_NOTE);
  });

  it('leaves a known preset to its table: no probe, and a 400 in other words is not taken for n', async () => {
    const { result, stats } = await sampleFrom({ rejectMultiple: 'Invalid request' }, 'vllm');
    expect(result.state).not.toBe('done');
    expect(stats.byStatus['200'] ?? 0).toBe(0);
    expect(result.notes).not.toContain(N_PROBE_REFUSED_NOTE);
  });
});
