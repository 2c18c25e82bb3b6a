import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockProviderServer } from '../../mock/provider-server.ts';
import { QUESTION, ask, providerFor, startMock } from './helpers.ts';

let mock: MockProviderServer;
beforeEach(async () => {
  mock = await startMock();
});
afterEach(async () => {
  await mock.close();
});

const STANDARD = ['accept', 'accept-encoding', 'accept-language', 'connection', 'content-length', 'host', 'sec-fetch-mode', 'user-agent'];

describe('Anthropic Messages wire format', () => {
  it('sends one request per reply with the browser-access headers, temperature only, max_tokens always', async () => {
    const { provider } = providerFor(mock, 'anthropic');
    expect(provider.maxN({ temperature: 1, maxTokens: 10 })).toBe(1);
    const c = await provider.complete(ask(4, { settings: { temperature: 0.8, topP: 0.9, maxTokens: 300 } }));
    expect(c.replies).toHaveLength(4);
    const s = mock.stats();
    expect(s.requests).toBe(4);
    expect(s.served[QUESTION]).toBe(4);
    expect(s.lastRequest?.path).toBe('/v1/messages');
    expect(s.lastRequest?.bodyKeys).toEqual(['max_tokens', 'messages', 'model', 'temperature']);
    expect(s.lastRequest?.headers.filter((h) => !STANDARD.includes(h))).toEqual([
      'anthropic-dangerous-direct-browser-access',
      'anthropic-version',
      'content-type',
      'x-api-key',
    ]);
    expect(c.effective).toMatchObject({ temperature: 0.8, maxTokens: 300 });
    expect(c.effective.topP).toBeUndefined();
  });

  it('clamps temperature to Anthropic’s 0–1 range', async () => {
    const { provider } = providerFor(mock, 'anthropic');
    await provider.complete(ask(1, { settings: { temperature: 1.5, maxTokens: 10 } }));
    expect(mock.stats().lastRequest?.temperature).toBe(1);
  });

  it('passes a system message in the system field', async () => {
    const { provider } = providerFor(mock, 'anthropic');
    await provider.complete({ ...ask(1), messages: [{ role: 'system', content: 'Be brief.' }, ...ask(1).messages] });
    expect(mock.stats().lastRequest?.bodyKeys).toContain('system');
  });
});

describe('Gemini generateContent wire format', () => {
  it('uses candidateCount on 2.x, the key in x-goog-api-key and never in the URL', async () => {
    const { provider } = providerFor(mock, 'gemini');
    const c = await provider.complete(ask(6));
    expect(c.replies).toHaveLength(6);
    const s = mock.stats();
    expect(s.requests).toBe(1);
    expect(s.lastRequest?.n).toBe(6);
    expect(s.lastRequest?.path).toBe('/v1/models/gemini-2.5-flash:generateContent');
    expect(s.keyInUrl).toBe(0);
    expect(s.lastRequest?.headers.filter((h) => !STANDARD.includes(h))).toEqual(['content-type', 'x-goog-api-key']);
  });

  it('splits above the 8-candidate limit', async () => {
    const { provider } = providerFor(mock, 'gemini');
    const c = await provider.complete(ask(20));
    expect(c.replies).toHaveLength(20);
    expect(mock.stats().requests).toBe(3);
  });

  it('sends parallel single requests for 3.x, which refuses candidateCount', async () => {
    const { provider } = providerFor(mock, 'gemini', { model: 'gemini-3-pro-preview' });
    const c = await provider.complete(ask(3));
    expect(c.replies).toHaveLength(3);
    expect(mock.stats().requests).toBe(3);
    expect(mock.stats().byStatus['400']).toBeUndefined();
  });

  it('learns at run time when a model refuses several candidates', async () => {
    mock.configure({ rejectMultiple: true });
    const { provider } = providerFor(mock, 'gemini');
    const c = await provider.complete(ask(3));
    expect(c.replies).toHaveLength(3);
    expect(provider.notes()[0]).toMatch(/one reply per request/);
  });

  it('reports a bad key as auth, without the key', async () => {
    const { provider } = providerFor(mock, 'gemini', { apiKey: 'AIzaSyWRONGWRONGWRONG123' });
    const err = await provider.complete(ask(1)).catch((e) => e);
    expect(err).toMatchObject({ kind: 'auth', retryable: false });
    expect(err.message).not.toContain('AIzaSyWRONGWRONGWRONG123');
  });
});
