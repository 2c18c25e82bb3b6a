/**
 * Batch calls go through the providers' HttpClient: its retry policy, the wire format's headers
 * (the key only to the provider's own origin), its error classifier, and no key in any message.
 * A scripted fetch stands in for the network, and sleeps are recorded, never waited for.
 */
import { describe, expect, it } from 'vitest';
import { ServiceCalls } from '../../../src/providers/batch-calls.ts';
import { ProviderError } from '../../../src/providers/errors.ts';
import { capabilitiesFor } from '../../../src/providers/capabilities.ts';
import { WIRE_FORMATS } from '../../../src/providers/wire-formats.ts';
import { linesOf } from '../../../src/batch/jsonl.ts';

const KEY = 'sk-test-batch-key-0123456789';
const BASE = 'https://api.example.test/v1';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function scripted(replies: (() => Response)[]) {
  const seen: Seen[] = [];
  const sleeps: number[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, method: String(init.method), headers: { ...(init.headers as Record<string, string>) }, body: init.body });
    const next = replies.shift();
    if (!next) throw new Error('script exhausted');
    return next();
  }) as unknown as typeof globalThis.fetch;
  return { seen, sleeps, deps: { fetch, sleep: async (ms: number) => void sleeps.push(ms), random: () => 0.5, now: () => 0 } };
}

function calls(api: 'openai' | 'anthropic' | 'gemini', net: ReturnType<typeof scripted>) {
  const ctx = { preset: api, baseUrl: BASE, model: 'm', caps: capabilitiesFor(api, 'm') };
  return new ServiceCalls(WIRE_FORMATS[api], { ctx, apiKey: KEY, deps: net.deps });
}

const json = (v: unknown, status = 200, headers: Record<string, string> = {}) => () => new Response(JSON.stringify(v), { status, headers });

describe('batch calls through the providers HTTP client', () => {
  it('attaches the wire format headers, a JSON body with its content-type, none on a GET', async () => {
    for (const api of ['openai', 'anthropic', 'gemini'] as const) {
      const net = scripted([json({ id: 'b1' }), json({ id: 'b1' })]);
      const c = calls(api, net);
      expect(await c.json('POST', c.url('batches'), { a: 1 })).toEqual({ id: 'b1' });
      expect(await c.json('GET', c.url('batches/b1'))).toEqual({ id: 'b1' });
      expect(net.seen[0]).toEqual({ url: `${BASE}/batches`, method: 'POST', headers: WIRE_FORMATS[api].headers(KEY), body: '{"a":1}' });
      const { 'content-type': _, ...withoutType } = WIRE_FORMATS[api].headers(KEY);
      expect(net.seen[1]).toEqual({ url: `${BASE}/batches/b1`, method: 'GET', headers: withoutType, body: undefined });
    }
  });

  it('sends a FormData as multipart, leaving its content-type to fetch', async () => {
    const net = scripted([json({ id: 'file-1' })]);
    const c = calls('openai', net);
    const form = new FormData();
    form.append('purpose', 'batch');
    await c.json('POST', c.url('files'), form);
    expect(net.seen[0].body).toBe(form);
    expect(Object.keys(net.seen[0].headers)).toEqual(['authorization']);
  });

  it('retries a retryable status with the policy backoff, Retry-After first, then succeeds', async () => {
    const net = scripted([json({ error: { message: 'busy' } }, 503), json({ error: { message: 'slow down' } }, 429, { 'retry-after': '2' }), json({ id: 'b1' })]);
    const c = calls('anthropic', net);
    expect(await c.json('GET', c.url('messages/batches/b1'))).toEqual({ id: 'b1' });
    // Full jitter at random() = 0.5 of min(30 s, 500 ms · 2^0), then Retry-After's 2 s.
    expect(net.sleeps).toEqual([250, 2000]);
    expect(net.seen).toHaveLength(3);
  });

  it('keeps status and retryability on errors, never retries an auth error, and never shows the key', async () => {
    const net = scripted([json({ error: { message: `Incorrect API key provided: ${KEY}` } }, 401)]);
    const c = calls('openai', net);
    const e = await c.json('GET', c.url('batches/b1')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect(e).toMatchObject({ kind: 'auth', status: 401, retryable: false });
    expect((e as Error).message).not.toContain(KEY);
    expect(net.seen).toHaveLength(1);
  });

  it('a 200 that is not JSON is a retryable bad response', async () => {
    const net = scripted(Array.from({ length: 7 }, () => () => new Response('<html>gateway</html>', { status: 200 })));
    const c = calls('gemini', net);
    await expect(c.json('GET', c.url('batches/x'))).rejects.toMatchObject({ kind: 'bad-response', retryable: true });
    expect(net.seen).toHaveLength(7);
  });

  it('streams a download, and sends the key only to the provider origin', async () => {
    const net = scripted([() => new Response('{"a":1}\n{"b":2}\n'), () => new Response('{"c":3}\n')]);
    const c = calls('anthropic', net);
    const own: string[] = [];
    for await (const line of linesOf(await c.stream(c.url('messages/batches/b1/results')))) own.push(line);
    const foreign: string[] = [];
    for await (const line of linesOf(await c.stream('https://results.elsewhere.test/b1'))) foreign.push(line);
    expect(own).toEqual(['{"a":1}', '{"b":2}']);
    expect(foreign).toEqual(['{"c":3}']);
    expect(net.seen[0].headers['x-api-key']).toBe(KEY);
    expect(net.seen[1].headers['x-api-key']).toBeUndefined();
    expect(net.seen[1].headers['anthropic-version']).toBe('2023-06-01');
  });
});
