/**
 * A wire format is one object and one row of a table: a format of this test's own, added to a copy
 * of the shipped table and nowhere else, is used by createProvider for real requests to a server on
 * 127.0.0.1 (its URL, headers with the key, body, reply parser, error classifier and capabilities),
 * and by batchServiceFor for its batch service. The shipped table itself stays as it was, and no
 * file outside the formats' modules tests a model's kind against a format's id.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/providers/create-provider.ts';
import { WIRE_FORMATS, wireFormat } from '../../../src/providers/wire-formats.ts';
import type { WireFormat } from '../../../src/providers/wire-format.ts';
import { httpError, kindFromStatus } from '../../../src/providers/errors.ts';
import { ServiceCalls } from '../../../src/providers/batch-calls.ts';
import { joinUrl } from '../../../src/providers/wire.ts';
import { batchServiceFor } from '../../../src/batch/service-for-model.ts';
import { PRESETS } from '../../../src/providers/presets.ts';
import { PROVIDER_KINDS, WIRE_FORMAT_IDS, type ProviderKind } from '../../../src/model/provider.ts';
import type { BatchModel } from '../../../src/batch/request-lines.ts';

const KEY = 'plain-key-4f8a1c9e7b';

/**
 * "Plain": a made-up format unlike the three shipped ones. POST {base}/plain/complete with the key
 * in x-plain-key, {model, prompt, count, heat}; the reply is {outputs: [...], used: {in, out}}; a
 * 402 whose body says "broke" means no credit. At most 3 replies per request.
 */
const PLAIN: WireFormat = {
  id: 'plain',
  headers: (apiKey) => ({ 'content-type': 'application/json', ...(apiKey ? { 'x-plain-key': apiKey } : {}) }),
  url: (ctx) => joinUrl(ctx.baseUrl, 'plain/complete'),
  body: (ctx, input) => ({
    model: ctx.model,
    prompt: input.messages.map((m) => m.content).join('\n'),
    count: input.effective.n,
    heat: input.effective.temperature,
  }),
  parse: (_ctx, text) => {
    const json = JSON.parse(text) as { outputs: string[]; used: { in: number; out: number } };
    return { replies: json.outputs.map((t) => ({ text: t, finishReason: 'done' })), usage: { inputTokens: json.used.in, outputTokens: json.used.out } };
  },
  error: (ctx, status, text, retryAfterMs) =>
    httpError({ status, kind: /broke/.test(text) ? 'quota' : kindFromStatus(status), detail: text, preset: ctx.preset, apiKey: ctx.apiKey, retryAfterMs }),
  capabilities: () => ({ maxN: 3, temperatureRange: [0, 1] }),
  batch: {
    limits: { maxRequests: 10, maxBytes: 1024 * 1024 },
    requestLine: (customId, body) => ({ ticket: customId, job: body }),
    resultLine: (line) => ({ outcome: { customId: String(line.ticket), ok: true, replies: [], usage: { inputTokens: 0, outputTokens: 0 } } }),
    service: (opts) => {
      const calls = new ServiceCalls(PLAIN, opts);
      return {
        api: 'plain' as never,
        submit: async (lines, signal) => {
          const v = (await calls.json('POST', calls.url('plain/batches'), { lines }, signal)) as { id: string };
          return { id: v.id, phase: 'running', raw: 'queued', ended: false, counts: { total: lines.length, succeeded: 0, failed: 0 } };
        },
        status: async () => {
          throw new Error('not used here');
        },
        results: async () => [],
      };
    },
  },
};

/** The shipped table with one more row: the only place the test adds its format. */
const TABLE = { ...WIRE_FORMATS, plain: PLAIN };

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

let server: Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const reply = (status: number, v: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(v));
      };
      if (req.headers['x-plain-key'] !== KEY) return reply(401, { why: 'who are you' });
      if (req.url === '/v1/plain/batches') return reply(200, { id: 'plain-batch-1' });
      if (req.url !== '/v1/plain/complete') return reply(404, { why: 'no such path' });
      if (String(body.prompt).includes('pay')) return reply(402, { why: `broke: no credit left for key ${KEY}` });
      const count = Number(body.count);
      return reply(200, { outputs: Array.from({ length: count }, (_, i) => `Paris ${i}`), used: { in: 7, out: 2 * count } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
});

// The shipped ids are a closed list (model/provider.ts); a table of the test's own has one more.
const plainConfig = (apiKey = KEY) => ({ kind: 'plain' as ProviderKind, preset: 'plain-host', baseUrl: base, model: 'plain-1', apiKey });
const ask = (n: number, content = 'What is the capital of France?') => ({
  messages: [{ role: 'user' as const, content }],
  settings: { temperature: 1.7, maxTokens: 50 },
  n,
});

describe('a wire format added through the table', () => {
  it('sends real requests the way its module says, and reads the replies with its parser', async () => {
    const provider = createProvider(plainConfig(), { formats: TABLE });
    const c = await provider.complete(ask(5));
    // Its capabilities: at most 3 replies a request (5 = 3 + 2), temperature clamped to its range.
    expect(provider.maxN({ temperature: 1, maxTokens: 50 })).toBe(3);
    expect(c.replies.map((r) => r.text)).toEqual(['Paris 0', 'Paris 1', 'Paris 2', 'Paris 0', 'Paris 1']);
    expect(c.usage).toEqual({ inputTokens: 14, outputTokens: 10 });
    expect(seen).toHaveLength(2);
    for (const s of seen) {
      expect(s.method).toBe('POST');
      expect(s.url).toBe('/v1/plain/complete');
      expect(s.headers['x-plain-key']).toBe(KEY);
      expect(s.headers.authorization).toBeUndefined();
    }
    expect(seen.map((s) => s.body).sort((a, b) => Number(b.count) - Number(a.count))).toEqual([
      { model: 'plain-1', prompt: 'What is the capital of France?', count: 3, heat: 1 },
      { model: 'plain-1', prompt: 'What is the capital of France?', count: 2, heat: 1 },
    ]);
  });

  it('classifies a failed reply with its own classifier, through the one HTTP client (no retry, no key in the message)', async () => {
    const provider = createProvider(plainConfig(), { formats: TABLE, http: { sleep: async () => undefined } });
    const err = await provider.complete(ask(1, 'Can I pay later?')).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'quota', status: 402, retryable: false });
    expect((err as Error).message).toMatch(/^The account has run out of credit or quota \(402\): add credit or raise the limit for plain-host/);
    expect((err as Error).message).not.toContain(KEY);
    expect(seen).toHaveLength(1);
  });

  it("opens its batch service through the same table, with its headers", async () => {
    const model = { kind: 'plain', preset: 'plain-host', baseUrl: base, model: 'plain-1' } as unknown as BatchModel;
    const service = batchServiceFor(model, KEY, undefined, TABLE);
    const status = await service.submit([PLAIN.batch!.requestLine('q1', { x: 1 })]);
    expect(status).toMatchObject({ id: 'plain-batch-1', raw: 'queued' });
    expect(seen).toEqual([expect.objectContaining({ url: '/v1/plain/batches', body: { lines: [{ ticket: 'q1', job: { x: 1 } }] } })]);
    expect(seen[0].headers['x-plain-key']).toBe(KEY);
  });

  it('is unknown to the shipped table, which refuses it in words naming the formats there are', () => {
    expect(Object.keys(WIRE_FORMATS)).toEqual([...WIRE_FORMAT_IDS]);
    expect(() => createProvider(plainConfig())).toThrow('No wire format is called "plain": expected one of openai, anthropic, gemini.');
    expect(wireFormat('plain', TABLE)).toBe(PLAIN);
  });
});

describe('the table is the only switch on the format', () => {
  it('has a row for every format id, and every preset speaks a format of the table or runs in the page', () => {
    for (const id of WIRE_FORMAT_IDS) expect(WIRE_FORMATS[id].id).toBe(id);
    for (const p of Object.values(PRESETS)) expect(PROVIDER_KINDS).toContain(p.kind);
    for (const p of Object.values(PRESETS).filter((x) => x.batch)) expect(wireFormat(p.kind).batch).toBeDefined();
  });

  it('no source file outside the formats tests a kind against a format id', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : /\.(ts|svelte)$/.test(name) ? [path] : [];
      });
    const FORMAT_TEST = /\b(kind|api)\s*[!=]==?\s*'(openai|anthropic|gemini)'|'(openai|anthropic|gemini)'\s*[!=]==?\s*\w*\.?(kind|api)\b|case '(openai|anthropic|gemini)':/;
    const offenders = [...files('src'), ...files('cli')].filter((f) => FORMAT_TEST.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
