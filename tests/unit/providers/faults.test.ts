import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProviderKind } from '../../../src/model/provider.ts';
import type { FaultKind, MockProviderServer } from '../../mock/provider-server.ts';
import { ask, providerFor, startMock } from './helpers.ts';

let mock: MockProviderServer;
beforeEach(async () => {
  mock = await startMock();
});
afterEach(async () => {
  await mock.close();
});

const KINDS: ProviderKind[] = ['openai', 'anthropic', 'gemini'];

describe.each(KINDS)('%s: one retry policy', (kind) => {
  const retried: [FaultKind, string][] = [
    ['rate-limit', 'rate-limit'],
    ['server-500', 'server'],
    ['server-503', 'server'],
    ['overloaded-529', 'server'],
    ['drop', 'network'],
    ['malformed', 'bad-response'],
  ];
  it.each(retried)('retries after %s (%s) and then succeeds', async (fault, errorKind) => {
    mock.configure({ faults: { sequence: [fault] } });
    const { provider, sleeps } = providerFor(mock, kind);
    const events: string[] = [];
    const c = await provider.completeOnce({ ...ask(1), onEvent: (e) => events.push(e.type === 'retrying' ? `retrying:${e.error.kind}` : e.type) });
    expect(c.replies).toHaveLength(1);
    expect(events).toEqual([`retrying:${errorKind}`, 'done']);
    // Full jitter with random() = 0.5 and base 100 ms: first delay 50 ms.
    expect(sleeps).toEqual([50]);
  });

  it('honours Retry-After instead of its own backoff', async () => {
    mock.configure({ faults: { sequence: ['rate-limit-retry-after', 'rate-limit-retry-after'], retryAfterSeconds: 3 } });
    const { provider, sleeps } = providerFor(mock, kind);
    await provider.completeOnce(ask(1));
    expect(sleeps).toEqual([3000, 3000]);
  });

  it('backs off exponentially and gives up after maxRetries with the last error', async () => {
    mock.configure({ faults: { sequence: ['server-500', 'server-500', 'server-500', 'server-500'] } });
    const { provider, sleeps } = providerFor(mock, kind, { maxRetries: 3 });
    const err = await provider.completeOnce(ask(1)).catch((e) => e);
    expect(err).toMatchObject({ kind: 'server', retryable: true });
    expect(sleeps).toEqual([50, 100, 200]);
  });

  it.each([['auth'], ['quota']] as const)('never retries %s, and says what to do', async (fault) => {
    mock.configure({ faults: { sequence: [fault] } });
    const { provider, sleeps } = providerFor(mock, kind);
    const err = await provider.completeOnce(ask(1)).catch((e) => e);
    expect(err).toMatchObject({ kind: fault, retryable: false });
    expect(err.message).toMatch(fault === 'auth' ? /check the key/ : /credit or quota/);
    expect(sleeps).toEqual([]);
  });

  it('times out a hung request, then retries it', async () => {
    // The retry must be answered within the same per-attempt limit, so the limit leaves a loaded
    // machine room (a loopback reply takes milliseconds); the hang outlasts it many times over.
    mock.configure({ faults: { sequence: ['hang'], hangMs: 60_000 } });
    const { provider } = providerFor(mock, kind, { timeoutMs: 1_000 });
    const events: string[] = [];
    const c = await provider.completeOnce({ ...ask(1), onEvent: (e) => events.push(e.type === 'retrying' ? e.error.kind : e.type) });
    expect(c.replies).toHaveLength(1);
    expect(events).toEqual(['timeout', 'done']);
  });

  it('stops at once when the caller aborts', async () => {
    mock.configure({ faults: { sequence: ['hang'], hangMs: 5000 } });
    const { provider } = providerFor(mock, kind);
    const ac = new AbortController();
    const pending = provider.completeOnce({ ...ask(1), signal: ac.signal }).catch((e) => e);
    // Aborted once the mock holds the request, so it is a request in flight that stops.
    await vi.waitFor(() => expect(mock.stats().inFlight).toBe(1), { interval: 5 });
    ac.abort();
    const err = await pending;
    expect(err).toMatchObject({ kind: 'aborted', retryable: false });
  });
});

describe('faults that depend on the wire format', () => {
  it('the mock answers CORS preflights for every API with the headers browsers need', async () => {
    for (const path of ['/v1/chat/completions', '/v1/messages', '/v1/models/gemini-2.5-flash:generateContent']) {
      const res = await fetch(`${mock.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'http://127.0.0.1:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-headers')).toMatch(/x-api-key/);
      expect(res.headers.get('access-control-allow-headers')).toMatch(/x-goog-api-key/);
      expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(res.headers.get('access-control-expose-headers')).toMatch(/Retry-After/i);
    }
    expect(mock.stats().preflights).toBe(3);
  });
});
