import { describe, expect, it } from 'vitest';
import { ANTHROPIC } from '../../../src/providers/anthropic.ts';
import { capabilitiesFor } from '../../../src/providers/capabilities.ts';
import { parseRetryAfter, scrubKey } from '../../../src/providers/errors.ts';
import { GEMINI } from '../../../src/providers/gemini.ts';
import { HttpClient } from '../../../src/providers/http.ts';
import { OPENAI } from '../../../src/providers/openai.ts';
import type { WireContext } from '../../../src/providers/wire-format.ts';

const ctx = (preset: string, apiKey = 'sk-test-abcdefghijklmnop'): WireContext => ({
  preset, baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey, caps: capabilitiesFor(preset, 'm'),
});

describe('classifying error bodies (recorded shapes from the research notes)', () => {
  it('OpenAI 429 insufficient_quota is exhausted quota; a plain 429 is a rate limit', () => {
    const quota = OPENAI.error(ctx('openai'), 429, JSON.stringify({ error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } }), null);
    expect(quota).toMatchObject({ kind: 'quota', retryable: false });
    const rate = OPENAI.error(ctx('openai'), 429, JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }), 2000);
    expect(rate).toMatchObject({ kind: 'rate-limit', retryable: true, retryAfterMs: 2000 });
  });

  it('402 (OpenRouter insufficient credits, DeepSeek balance) stops the run', () => {
    const e = OPENAI.error(ctx('openrouter'), 402, JSON.stringify({ error: { code: 402, message: 'Insufficient credits' } }), null);
    expect(e).toMatchObject({ kind: 'quota', retryable: false, status: 402 });
    expect(e.message).toMatch(/add credit.*OpenRouter/);
  });

  it('names providers by their display names, never internal ids such as "custom"', () => {
    const refused = OPENAI.error(ctx('custom'), 401, JSON.stringify({ error: { message: 'bad key' } }), null);
    expect(refused.message).toMatch(/^The key was refused \(401\): check the key for the OpenAI-compatible server\./);
    const rejected = OPENAI.error(ctx('custom'), 400, JSON.stringify({ error: { message: 'nope' } }), null);
    expect(rejected.message).toMatch(/^The OpenAI-compatible server rejected the request \(400\)/);
    expect(OPENAI.error(ctx('vllm'), 500, '{}', null).message).toMatch(/^vLLM had a server error \(500\)/);
    expect(OPENAI.error(ctx('openai'), 401, '{}', null).message).toMatch(/check the key for OpenAI\./);
    for (const e of [refused, rejected]) expect(e.message).not.toMatch(/\bcustom\b/);
  });

  it('an OpenRouter error inside a 200 body is still an error', () => {
    expect(() => OPENAI.parse(ctx('openrouter'), JSON.stringify({ error: { code: 502, message: 'Provider down' } }), 200)).toThrow(/server error/);
  });

  it('a Cloudflare HTML 403 page (Groq) reads as auth with readable text', () => {
    const e = OPENAI.error(ctx('groq'), 403, '<html><body><h1>Access denied</h1></body></html>', null);
    expect(e).toMatchObject({ kind: 'auth' });
    expect(e.message).toContain('Access denied');
  });

  it('Anthropic spend limits and low credit balance are quota, overloaded 529 is retryable', () => {
    const spend = ANTHROPIC.error(ctx('anthropic'), 429, JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'limit', details: { error_code: 'enforced_spend_limit_reached' } } }), null);
    expect(spend).toMatchObject({ kind: 'quota', retryable: false });
    const credit = ANTHROPIC.error(ctx('anthropic'), 400, JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API.' } }), null);
    expect(credit).toMatchObject({ kind: 'quota' });
    const over = ANTHROPIC.error(ctx('anthropic'), 529, JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), null);
    expect(over).toMatchObject({ kind: 'server', retryable: true });
  });

  it('Gemini daily quota stops; per-minute quota waits for RetryInfo', () => {
    const body = (quotaId: string, extra: object[] = []) => JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded', details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId }] }, ...extra] } });
    expect(GEMINI.error(ctx('gemini'), 429, body('GenerateRequestsPerDayPerProjectPerModel-FreeTier'), null)).toMatchObject({ kind: 'quota', retryable: false });
    const minute = GEMINI.error(ctx('gemini'), 429, body('GenerateRequestsPerMinutePerProjectPerModel', [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' }]), null);
    expect(minute).toMatchObject({ kind: 'rate-limit', retryable: true, retryAfterMs: 17000 });
  });

  it('never lets the key through, whole or in part', () => {
    const key = 'sk-proj-Abcdefgh12345678Zyxwvuts';
    const e = OPENAI.error(ctx('openai', key), 401, JSON.stringify({ error: { message: `Incorrect API key provided: ${key.slice(0, 8)}****${key.slice(-8)}.` } }), null);
    expect(e.message).not.toContain(key.slice(0, 8));
    expect(e.message).not.toContain(key.slice(-8));
    expect(scrubKey(`key=${key}`, key)).toBe('key=[key]');
    expect(scrubKey('token AIzaSyD-abcdefghijklmnop leaked')).toBe('token [key] leaked');
  });
});

describe('Retry-After and backoff', () => {
  it('reads seconds, an HTTP date and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30000);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(parseRetryAfter(new Headers(), now)).toBeNull();
  });

  it('full jitter stays under min(max, base·2^attempt) and Retry-After is capped', () => {
    const http = new HttpClient('openai', undefined, 4, { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000, timeoutMs: 1000, maxRetryAfterMs: 5000 }, {
      fetch, sleep: async () => {}, random: () => 0.999, now: Date.now,
    });
    expect(http.backoffMs(0, null)).toBe(99);
    expect(http.backoffMs(3, null)).toBe(799);
    expect(http.backoffMs(10, null)).toBe(999);
    expect(http.backoffMs(0, 60_000)).toBe(5000);
  });
});
