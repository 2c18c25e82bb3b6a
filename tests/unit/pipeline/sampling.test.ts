import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemorySampleCache, type SampleCache } from '../../../src/model/sample-cache.ts';
import { readSamples, runSampling } from '../../../src/pipeline/sampling.ts';
import type { SamplingProgress } from '../../../src/model/run-spec.ts';
import type { Question } from '../../../src/model/rows.ts';
import type { ProviderKind } from '../../../src/model/provider.ts';
import { type MockConfig, MockProviderServer } from '../../mock/provider-server.ts';
import { KEY, providerFor } from '../providers/helpers.ts';

const QUESTIONS: Question[] = Array.from({ length: 6 }, (_, i) => ({ id: `q${i}`, question: `Mock question number ${i}?`, answer: `A${i}` }));
const SETTINGS = { temperature: 1, topP: 1, maxTokens: 100 };

let mock: MockProviderServer;
async function start(extra: MockConfig = {}) {
  mock = await MockProviderServer.start({
    apiKey: KEY,
    questions: QUESTIONS.map((q, i) => ({ match: q.question, id: q.id, answers: { [`A${i}`]: 2, [`B${i}`]: 1 }, confidence: 70 })),
    ...extra,
  });
}
beforeEach(() => start());
afterEach(async () => {
  await mock.close();
});

function sampling(kind: ProviderKind, cache: SampleCache, n: number, extra: Record<string, unknown> = {}, overrides = {}) {
  const { provider } = providerFor(mock, kind, overrides);
  return { provider, run: () => runSampling({ questions: QUESTIONS, provider, settings: SETTINGS, n, cache, ...extra }) };
}

function servedExactly(n: number) {
  const served = mock.stats().served;
  for (const q of QUESTIONS) expect(served[q.id], q.id).toBe(n);
}

describe('runSampling', () => {
  it('ends with exactly n stored samples per question, one request per question when n fits', async () => {
    const cache = new MemorySampleCache();
    const progress: SamplingProgress[] = [];
    const { run, provider } = sampling('openai', cache, 7, { onProgress: (p: SamplingProgress) => progress.push(p), price: { input: 1, output: 2 } });
    const r = await run();
    expect(r.state).toBe('done');
    expect(cache.map.size).toBe(42);
    expect(mock.stats().requests).toBe(6);
    servedExactly(7);
    const stored = await readSamples({ questions: QUESTIONS, provider, settings: SETTINGS, n: 7, cache });
    for (const [i, samples] of stored.entries()) {
      expect(samples.every((s) => s !== undefined)).toBe(true);
      for (const s of samples) expect([`A${i}`, `B${i}`]).toContain(s!.answer);
      for (const s of samples) expect(s!.confidence).toBe(0.7);
    }
    const last = progress.at(-1)!;
    expect(last).toMatchObject({ state: 'done', samples: { done: 42, cached: 0, total: 42 }, requests: { done: 6, failed: 0, inFlight: 0 } });
    expect(last.tokens.output).toBeGreaterThan(0);
    expect(last.cost).toBeCloseTo((last.tokens.input + 2 * last.tokens.output) / 1e6, 12);
    expect(r.effective).toMatchObject({ temperature: 1, maxTokens: 100 });
  });

  it('resumes: a longer run requests only the missing indices, a repeated run requests nothing', async () => {
    const cache = new MemorySampleCache();
    await sampling('anthropic', cache, 3).run();
    servedExactly(3);
    const r = await sampling('anthropic', cache, 8).run();
    expect(r.state).toBe('done');
    expect(r.progress.samples).toEqual({ done: 48, cached: 18, total: 48 });
    servedExactly(8);
    const before = mock.stats().requests;
    const again = await sampling('anthropic', cache, 8).run();
    expect(again.state).toBe('done');
    expect(mock.stats().requests).toBe(before);
    servedExactly(8);
  });

  it('changing the model, the prompt or a setting is a different sample (new keys)', async () => {
    const cache = new MemorySampleCache();
    await sampling('openai', cache, 2).run();
    await sampling('openai', cache, 2, { promptTemplate: 'Q: {question}\nAnswer: ...\nConfidence: N%' }).run();
    await sampling('openai', cache, 2, { settings: { ...SETTINGS, temperature: 0.5 } }).run();
    await sampling('openai', cache, 2, {}, { model: 'other-model' }).run();
    expect(cache.map.size).toBe(4 * 12);
  });

  it.each(['openai', 'anthropic', 'gemini'] as ProviderKind[])('%s: 30 percent of requests faulted still gives exactly n, nothing served twice', async (kind) => {
    mock.configure({ faults: { probability: 0.3, seed: 7, slowMs: 100 }, maxN: { openai: 4 } });
    const cache = new MemorySampleCache();
    const r = await sampling(kind, cache, 10, {}, { maxRetries: 8, concurrency: 4 }).run();
    expect(r.state).toBe('done');
    expect(cache.map.size).toBe(60);
    servedExactly(10);
    expect(r.progress.requests.retries).toBeGreaterThan(0);
    expect(Object.keys(mock.stats().faults).length).toBeGreaterThan(0);
  });

  it('a provider that silently returns fewer choices is made up to n, and the limit is remembered', async () => {
    mock.configure({ maxN: { openai: 3 } });
    const cache = new MemorySampleCache();
    const r = await sampling('openai', cache, 10, {}, { preset: 'vllm', model: 'm' }).run();
    expect(r.state).toBe('done');
    servedExactly(10);
    expect(r.notes.join(' ')).toMatch(/limited to 3/);
    expect(r.effective.n).toBe(3);
  });

  it('stops the run on a refused key and says what to do', async () => {
    const cache = new MemorySampleCache();
    const r = await sampling('openai', cache, 5, {}, { apiKey: 'sk-wrong-key-0000000000' }).run();
    expect(r.state).toBe('stopped');
    expect(r.error).toMatchObject({ kind: 'auth', retryable: false });
    expect(r.error?.message).toMatch(/check the key/);
    expect(r.error?.message).not.toContain('sk-wrong-key-0000000000');
    expect(mock.stats().requests).toBeLessThanOrEqual(6);
    expect(r.incomplete).toHaveLength(6);
  });

  it('stops on exhausted quota mid-run and keeps every sample already received', async () => {
    mock.configure({ faults: { sequence: ['ok', 'ok', 'ok', 'quota'] } });
    const cache = new MemorySampleCache();
    const r = await sampling('anthropic', cache, 4, {}, { concurrency: 1 }).run();
    expect(r.state).toBe('stopped');
    expect(r.error?.kind).toBe('quota');
    expect(cache.map.size).toBe(3);
    // After the user adds credit, the run resumes and asks only for what is missing.
    mock.configure({ faults: {} });
    const again = await sampling('anthropic', cache, 4).run();
    expect(again.state).toBe('done');
    servedExactly(4);
  });

  it('a pause sends no new requests, a later run over the cache finishes, cancel stops', async () => {
    const cache = new MemorySampleCache();
    const pause = new AbortController();
    pause.abort('pause');
    const paused = await sampling('openai', cache, 3, { signal: pause.signal }).run();
    expect(paused.state).toBe('paused');
    expect(mock.stats().requests).toBe(0);
    expect((await sampling('openai', cache, 3).run()).state).toBe('done');

    const c2 = new AbortController();
    mock.configure({ latencyMs: 30 });
    const cancelled = sampling('anthropic', new MemorySampleCache(), 20, {
      signal: c2.signal,
      onSamples: () => c2.abort(),
    }).run();
    const r = await cancelled;
    expect(r.state).toBe('cancelled');
    expect(r.progress.samples.done).toBeLessThan(120);
  });

  it('a pause lets the requests in flight finish and stores their samples', async () => {
    const cache = new MemorySampleCache();
    const pause = new AbortController();
    mock.configure({ latencyMs: 30 });
    const r = await sampling('anthropic', cache, 20, {
      signal: pause.signal,
      onSamples: () => pause.abort('pause'),
    }).run();
    expect(r.state).toBe('paused');
    expect(r.progress.requests.inFlight).toBe(0);
    expect(r.progress.requests.failed).toBe(0);
    // Nothing in flight was thrown away: every reply received is in the cache, and not all were asked for.
    expect(cache.map.size).toBe(r.progress.samples.done);
    expect(r.progress.samples.done).toBeGreaterThan(0);
    expect(r.progress.samples.done).toBeLessThan(r.progress.samples.total);
  });

  it('keeps requests in flight within the concurrency limit', async () => {
    mock.configure({ latencyMs: 20 });
    const r = await sampling('anthropic', new MemorySampleCache(), 4, {}, { concurrency: 3 }).run();
    expect(r.state).toBe('done');
    expect(mock.stats().maxInFlight).toBeLessThanOrEqual(3);
  });

  it('stops when the cache cannot be written, and requests nothing more', async () => {
    const broken: SampleCache = { get: async (keys) => keys.map(() => undefined), put: async () => Promise.reject(new Error('disk full')) };
    const r = await sampling('anthropic', broken, 5, {}, { concurrency: 1 }).run();
    expect(r.state).toBe('stopped');
    expect(r.error).toMatchObject({ kind: 'cache' });
    expect(r.error?.message).toMatch(/disk full/);
    expect(mock.stats().requests).toBeLessThanOrEqual(2);
  });

  it('rejects a template without {question} and a bad n before any request', async () => {
    const bad = await sampling('openai', new MemorySampleCache(), 5, { promptTemplate: 'no slot' }).run();
    expect(bad).toMatchObject({ state: 'stopped', error: { kind: 'prompt' } });
    const badN = await sampling('openai', new MemorySampleCache(), 0).run();
    expect(badN).toMatchObject({ state: 'stopped', error: { kind: 'settings' } });
    expect(mock.stats().requests).toBe(0);
  });

  it('a repeated question id is sampled once (first row wins)', async () => {
    const { provider } = providerFor(mock, 'openai');
    const cache = new MemorySampleCache();
    const r = await runSampling({ questions: [QUESTIONS[0], QUESTIONS[0]], provider, settings: SETTINGS, n: 4, cache });
    expect(r.progress.samples.total).toBe(4);
    expect(mock.stats().served.q0).toBe(4);
  });
});

describe('sampleKey', () => {
  const base = { preset: 'openai', baseUrl: 'http://h/v1', model: 'm', prompt: 'P', settings: { temperature: 1, maxTokens: 10 }, questionId: 'q1', question: 'Q?', index: 3 };
  it('is stable, ignores key order and a trailing slash, and changes with every input', async () => {
    const { sampleKey, sampleKeyBase, keyAt, canonicalJson } = await import('../../../src/model/sample-cache.ts');
    const k = await sampleKey(base);
    expect(k).toMatch(/^s1:[0-9a-f]{64}#3$/);
    expect(keyAt(await sampleKeyBase(base), 3)).toBe(k);
    expect(await sampleKey({ ...base, baseUrl: 'http://h/v1/', settings: { maxTokens: 10, temperature: 1 } })).toBe(k);
    const variants = [
      { preset: 'xai' }, { baseUrl: 'http://other/v1' }, { model: 'm2' }, { prompt: 'P2' }, { settings: { temperature: 0.5, maxTokens: 10 } },
      { questionId: 'q2' }, { question: 'Q2?' }, { index: 4 },
    ];
    const keys = await Promise.all(variants.map((v) => sampleKey({ ...base, ...v })));
    expect(new Set([k, ...keys]).size).toBe(variants.length + 1);
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
  });
});

describe('failures that outlast the retries', () => {
  it('leave questions incomplete (with the cause) instead of looping, and a later run finishes them', async () => {
    mock.configure({ faults: { probability: 1, kinds: ['server-500'] } });
    const cache = new MemorySampleCache();
    const r = await sampling('openai', cache, 3, { maxFailuresPerQuestion: 2 }, { maxRetries: 0 }).run();
    expect(r.state).toBe('incomplete');
    expect(r.incomplete).toHaveLength(6);
    expect(r.incomplete[0]).toMatchObject({ questionId: 'q0', missing: 3, error: { kind: 'server', where: 'question q0' } });
    expect(r.progress.requests.failed).toBe(12);
    mock.configure({ faults: {} });
    expect((await sampling('openai', cache, 3).run()).state).toBe('done');
    servedExactly(3);
  });
});

describe('cost and ETA', () => {
  it('prices by the longest matching model prefix of the preset, and only there', async () => {
    const { priceFor, costOf, etaMs, validatePriceTable, DEFAULT_PRICES } = await import('../../../src/model/cost.ts');
    const table = { 'openai/gpt-4o': { input: 2.5, output: 10 }, 'openai/gpt-4o-mini': { input: 0.15, output: 0.6 } };
    expect(priceFor(table, 'openai', 'gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6 });
    expect(priceFor(table, 'openai', 'gpt-4o-2024-08-06')).toEqual({ input: 2.5, output: 10 });
    expect(priceFor(table, 'xai', 'gpt-4o')).toBeNull();
    expect(priceFor(DEFAULT_PRICES, 'ollama', 'llama3')).toEqual({ input: 0, output: 0 });
    expect(costOf({ input: 1_000_000, output: 500_000 }, { input: 2.5, output: 10 })).toBe(7.5);
    expect(costOf({ input: 5, output: 5 }, null)).toBeNull();
    expect(etaMs(0, 100, 1000)).toBeNull();
    expect(etaMs(50, 150, 1000)).toBe(3000);
    expect(etaMs(50, 0, 1000)).toBe(0);
    expect(validatePriceTable({ 'openai/x': { input: 1, output: -1 } })).toMatchObject({ ok: false, message: expect.stringMatching(/openai\/x.*output/) });
    expect(validatePriceTable({ nokey: { input: 1, output: 1 } }).ok).toBe(false);
    expect(validatePriceTable(DEFAULT_PRICES).ok).toBe(true);
  });
});
