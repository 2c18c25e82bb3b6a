import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockProviderServer } from '../../mock/provider-server.ts';
import { KEY, QUESTION, ask, providerFor, startMock } from './helpers.ts';

let mock: MockProviderServer;
beforeEach(async () => {
  mock = await startMock();
});
afterEach(async () => {
  await mock.close();
});

describe('OpenAI Chat Completions wire format', () => {
  it('asks for n replies in one request, billed once, with only the headers it needs', async () => {
    const { provider } = providerFor(mock, 'openai');
    const c = await provider.complete(ask(5));
    expect(c.replies).toHaveLength(5);
    for (const r of c.replies) expect(r.text).toMatch(/Answer: (Paris|Lyon)\nConfidence: 90%/);
    const s = mock.stats();
    expect(s.requests).toBe(1);
    expect(s.lastRequest?.n).toBe(5);
    expect(s.lastRequest?.path).toBe('/v1/chat/completions');
    // OpenAI preset: max_completion_tokens; top_p 1 is the default and is left out.
    expect(s.lastRequest?.bodyKeys).toEqual(['max_completion_tokens', 'messages', 'model', 'n', 'temperature']);
    const extra = s.lastRequest!.headers.filter((h) => !['accept', 'accept-encoding', 'accept-language', 'connection', 'content-length', 'host', 'sec-fetch-mode', 'user-agent'].includes(h));
    expect(extra).toEqual(['authorization', 'content-type']);
    expect(c.usage.outputTokens).toBeGreaterThan(0);
    expect(c.effective).toMatchObject({ n: 5, temperature: 1, maxTokens: 200 });
  });

  it('uses max_tokens for the other presets on the same wire format and sends top_p when set', async () => {
    const { provider } = providerFor(mock, 'openai', { preset: 'xai', model: 'grok-3' });
    await provider.complete(ask(2, { settings: { temperature: 0.7, topP: 0.9, maxTokens: 50 } }));
    expect(mock.stats().lastRequest?.bodyKeys).toEqual(['max_tokens', 'messages', 'model', 'n', 'temperature', 'top_p']);
    expect(mock.stats().lastRequest).toMatchObject({ temperature: 0.7, topP: 0.9, maxTokens: 50 });
  });

  it('splits n above the 128 limit into several requests and returns exactly n', async () => {
    const { provider } = providerFor(mock, 'openai');
    expect(provider.maxN({ temperature: 1, maxTokens: 10 })).toBe(128);
    const c = await provider.complete(ask(200));
    expect(c.replies).toHaveLength(200);
    expect(mock.stats().requests).toBe(2);
    expect(mock.stats().served[QUESTION]).toBe(200);
  });

  it('notices fewer choices than asked, remembers it, and makes up the rest', async () => {
    mock.configure({ maxN: { openai: 2 } });
    const { provider } = providerFor(mock, 'openai', { preset: 'together', model: 'meta-llama' });
    const once = await provider.completeOnce(ask(5));
    expect(once.replies).toHaveLength(2);
    expect(provider.maxN({ temperature: 1, maxTokens: 10 })).toBe(2);
    expect(provider.notes().join(' ')).toMatch(/got 2/);
    const c = await provider.complete(ask(5));
    expect(c.replies).toHaveLength(5);
    expect(mock.stats().served[QUESTION]).toBe(7);
  });

  it('re-sends with one reply per request when the server refuses n > 1 (llama.cpp)', async () => {
    mock.configure({ rejectMultiple: true });
    const { provider } = providerFor(mock, 'openai', { preset: 'vllm', model: 'local' });
    const c = await provider.complete(ask(3));
    expect(c.replies).toHaveLength(3);
    expect(provider.maxN({ temperature: 1, maxTokens: 10 })).toBe(1);
    expect(mock.stats().byStatus['400']).toBe(1);
  });

  it('sends logprobs only where the model family supports them, and leaves sampling out for reasoning models', async () => {
    const a = providerFor(mock, 'openai');
    await a.provider.complete(ask(1, { settings: { temperature: 1, maxTokens: 10, logprobs: true, topLogprobs: 3 } }));
    expect(mock.stats().lastRequest?.bodyKeys).toContain('top_logprobs');
    const b = providerFor(mock, 'openai', { model: 'o3-mini' });
    await b.provider.complete(ask(1, { settings: { temperature: 0.5, maxTokens: 10, logprobs: true } }));
    expect(mock.stats().lastRequest?.bodyKeys).toEqual(['max_completion_tokens', 'messages', 'model']);
  });

  it('learns at run time that a model refuses temperature or logprobs, re-sends without them once, and says so', async () => {
    mock.configure({ rejectSampling: true, rejectLogprobs: true });
    const { provider } = providerFor(mock, 'openai', { model: 'gpt-4.1-mini' });
    const settings = { temperature: 0.7, maxTokens: 10, logprobs: true };
    const c = await provider.complete(ask(2, { settings }));
    expect(c.replies).toHaveLength(2);
    expect(c.effective.temperature).toBeUndefined();
    expect(c.effective.logprobs).toBeUndefined();
    expect(provider.notes()).toEqual([
      'The model refused temperature/top_p: sent without them (its defaults apply).',
      'The model refused logprobs: sent without them.',
    ]);
    expect(provider.effectiveSettings(settings, 2)).toEqual({ n: 2, maxTokens: 10 });
    expect(mock.stats().byStatus).toEqual({ '200': 1, '400': 2 });
  });

  it('reaches a local server that needs no key', async () => {
    mock.configure({ apiKey: null });
    const { provider } = providerFor(mock, 'openai', { preset: 'ollama', model: 'llama3', apiKey: undefined });
    const c = await provider.complete(ask(2));
    expect(c.replies).toHaveLength(2);
    expect(mock.stats().lastRequest?.headers).not.toContain('authorization');
  });

  it('refuses a wrong key without retrying, says what to do, and never repeats the key', async () => {
    const secret = 'sk-proj-SECRETSECRET1234567890';
    const { provider, sleeps } = providerFor(mock, 'openai', { apiKey: secret });
    const err = await provider.complete(ask(1)).catch((e) => e);
    expect(err).toMatchObject({ kind: 'auth', status: 401, retryable: false });
    expect(err.message).toMatch(/check the key for OpenAI\./);
    expect(err.message).not.toContain(secret);
    expect(err.message).not.toContain('SECRETSECRET');
    expect(JSON.stringify(err.toInfo())).not.toContain(secret);
    expect(sleeps).toEqual([]);
    expect(KEY).not.toBe(secret);
  });
});
