/**
 * A loopback mock of the OpenAI, Anthropic and Gemini HTTP APIs for tests and benchmarks: a real
 * node:http server on 127.0.0.1, with CORS preflight, key checks (it never logs or stores a key),
 * answers drawn from configured per-question distributions, and faults injected on demand.
 *
 * Sample indices: the mock gives each question a counter and numbers the replies it *delivers*
 * (reserved only when the response is written to an open socket), so `served[question]` is the
 * number of samples the client actually received. A client that needs n per question and
 * never requests a cached index ends with served == n; anything above n was served twice.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { type Http2ServerRequest, type Http2ServerResponse, constants as h2, createSecureServer } from 'node:http2';
import type { AddressInfo, Server, Socket } from 'node:net';
import { type MockQuestion, QuestionIndex, fnv1a, replyText } from './answers.ts';
import { type FaultConfig, type FaultKind, FaultPicker } from './faults.ts';
import { type SelfSigned, selfSignedCert } from './tls.ts';
import { type Api, type MockReply, type OpenAiLogprobEntry, type ParsedRequest, errorReply, parseRequest, presentedKey, routeApi, successBody } from './wire-formats.ts';
import { MockBatchService } from './batch-service.ts';

export type { MockQuestion } from './answers.ts';
export type { FaultConfig, FaultKind } from './faults.ts';
export type { ParsedRequest } from './wire-formats.ts';

export interface MockConfig {
  questions?: MockQuestion[];
  /** Used for prompts that match no configured question. */
  defaultAnswers?: Record<string, number>;
  seed?: number;
  /** The key every API must present; null accepts requests without a key (local servers). */
  apiKey?: string | null;
  latencyMs?: number;
  faults?: FaultConfig;
  /** Replies one request may return (per API); more asked → fewer returned, silently (like OpenRouter). */
  maxN?: Partial<Record<Api, number>>;
  /** Refuse n/candidateCount > 1 with a 400, as llama.cpp and Gemini 3 do; a string: in these words. */
  rejectMultiple?: boolean | string;
  /** Refuse temperature/top_p (OpenAI reasoning models) or logprobs (Groq, DeepSeek-reasoner) with a 400. */
  rejectSampling?: boolean;
  rejectLogprobs?: boolean;
}

/**
 * Reply text for sample `index` of a request; undefined falls back to the distributions. An object
 * adds OpenAI-format token logprobs (sent only when the request asked for logprobs).
 */
export type Responder = (req: ParsedRequest, index: number) => string | { text: string; logprobs?: OpenAiLogprobEntry[] } | undefined;

export interface MockStats {
  requests: number;
  preflights: number;
  byStatus: Record<string, number>;
  faults: Partial<Record<FaultKind, number>>;
  /** Samples delivered per question id (unmatched prompts: 'unmatched:<hash>'). */
  served: Record<string, number>;
  inFlight: number;
  maxInFlight: number;
  /**
   * Requests still in flight, their clients still connected, that began before the latest change of `latencyMs`: the replies that
   * may still be delivered after a test holds new requests with a long latency (wizard-helpers.ts,
   * holdUntilSettled). Zero means nothing sent before the hold can still arrive.
   */
  inFlightFromBefore: number;
  /** Gemini requests that carried the key in the URL (the client must never do that). */
  keyInUrl: number;
  lastRequest?: { api: Api; path: string; model: string; n: number; temperature?: number; topP?: number; maxTokens?: number; headers: string[]; bodyKeys: string[] };
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, x-api-key, x-goog-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
  'access-control-expose-headers': 'Retry-After',
  'access-control-max-age': '600',
};

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

/** The client went away (or the stream was reset): nothing written now would arrive. */
function gone(res: Res): boolean {
  if ('stream' in res && res.stream) return res.stream.destroyed || res.stream.closed;
  return (res as ServerResponse).destroyed || !!res.socket?.destroyed;
}

/** A dropped connection; over HTTP/2 only this request's stream, not the others sharing the connection. */
function drop(req: Req, res: Res): void {
  if ('stream' in res && res.stream) res.stream.close(h2.NGHTTP2_INTERNAL_ERROR);
  else req.socket.destroy();
}

const emptyStats = (): MockStats => ({ requests: 0, preflights: 0, byStatus: {}, faults: {}, served: {}, inFlight: 0, maxInFlight: 0, inFlightFromBefore: 0, keyInUrl: 0 });

export class MockProviderServer {
  private config: MockConfig = { apiKey: 'mock-key', seed: 0 };
  private index = new QuestionIndex([]);
  private faults = new FaultPicker();
  private statsValue = emptyStats();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  /** Bumped whenever `latencyMs` changes; each request in flight keeps the one it began under. */
  private latencyGeneration = 0;
  private readonly inFlightEntries = new Set<{ generation: number; res: Res }>();
  responder: Responder | undefined;
  url = '';
  /** The batch endpoints (tests/mock/batch-service.ts), sharing this server's answers and `served` counters. */
  readonly batches = new MockBatchService({ config: () => this.config, served: () => this.statsValue.served, responder: () => this.responder });
  /** Set when started with `tls: true`: the certificate to trust (HTTP/2 and HTTP/1.1 over TLS). */
  tls: SelfSigned | undefined;

  private constructor(private readonly server: Server) {}

  static async start(
    config: MockConfig = {},
    opts: { port?: number; responder?: Responder; tls?: boolean } = {},
  ): Promise<MockProviderServer> {
    const tls = opts.tls ? selfSignedCert() : undefined;
    const server: Server = tls ? createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }) : createServer();
    const mock = new MockProviderServer(server);
    mock.tls = tls;
    if (!tls) (server as ReturnType<typeof createServer>).keepAliveTimeout = 30_000;
    server.on(tls ? 'secureConnection' : 'connection', (s: Socket) => {
      mock.sockets.add(s);
      s.on('close', () => mock.sockets.delete(s));
    });
    server.on('request', (req: Req, res: Res) => void mock.handle(req, res));
    mock.configure(config);
    mock.responder = opts.responder;
    await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    mock.url = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return mock;
  }

  /** Merges settings (questions, faults … replace whole fields); fault sequences restart. */
  configure(partial: MockConfig): void {
    if (partial.latencyMs !== undefined && partial.latencyMs !== this.config.latencyMs) this.latencyGeneration++;
    this.config = { ...this.config, ...partial };
    this.index = new QuestionIndex(this.config.questions ?? []);
    this.faults = new FaultPicker(this.config.faults);
  }

  resetStats(): void {
    this.statsValue = emptyStats();
  }

  stats(): MockStats {
    let fromBefore = 0;
    // A request whose client has gone (a reload, a closed tab) can deliver nothing: not counted.
    for (const e of this.inFlightEntries) if (e.generation < this.latencyGeneration && !gone(e.res)) fromBefore++;
    return structuredClone({ ...this.statsValue, inFlightFromBefore: fromBefore });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private later(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  private send(res: Res, status: number, body: unknown, headers: Record<string, string> = {}, counted = true): boolean {
    if (gone(res)) return false;
    if (counted) this.statsValue.byStatus[status] = (this.statsValue.byStatus[status] ?? 0) + 1;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    // Both response kinds have the same writeHead/end; TypeScript cannot call through the union.
    (res as ServerResponse).writeHead(status, { ...CORS, 'content-type': 'application/json', ...headers });
    (res as ServerResponse).end(text);
    return true;
  }

  private async handle(req: Req, res: Res): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'OPTIONS') {
      this.statsValue.preflights++;
      (res as ServerResponse).writeHead(204, CORS);
      (res as ServerResponse).end();
      return;
    }
    const raw = await readBody(req);
    if (url.pathname.startsWith('/__mock/')) return this.control(req.method ?? '', url.pathname, raw, res);
    if (this.batches.handles(req.method ?? '', url.pathname)) return this.batches.handle(req, url, raw, res);
    const route = routeApi(req.method ?? '', url.pathname);
    if (!route) return void this.send(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
    this.statsValue.requests++;
    this.statsValue.inFlight++;
    this.statsValue.maxInFlight = Math.max(this.statsValue.maxInFlight, this.statsValue.inFlight);
    // Which latency setting this request waits under (stats().inFlightFromBefore).
    const entry = { generation: this.latencyGeneration, res };
    this.inFlightEntries.add(entry);
    try {
      await this.serveApi(route.api, route.model, url, req, raw, res);
    } finally {
      this.statsValue.inFlight--;
      this.inFlightEntries.delete(entry);
    }
  }

  private async serveApi(api: Api, urlModel: string | undefined, url: URL, req: Req, raw: string, res: Res): Promise<void> {
    if (api === 'gemini' && url.searchParams.has('key')) this.statsValue.keyInUrl++;
    const expected = this.config.apiKey;
    const key = presentedKey(api, req.headers) ?? (api === 'gemini' ? url.searchParams.get('key') ?? undefined : undefined);
    if (expected !== null && expected !== undefined && key !== expected) {
      // Real APIs echo part of a wrong key back; echoing all of it tests that clients scrub it.
      const e = errorReply(api, 'auth', key ? `Incorrect API key provided: ${key}.` : 'No API key provided.');
      return void this.send(res, e.status, e.body);
    }
    if (api === 'anthropic' && req.headers.origin && req.headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
      const e = errorReply(api, 'auth', "CORS requests must set 'anthropic-dangerous-direct-browser-access' header");
      return void this.send(res, e.status, e.body);
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      const e = errorReply(api, 'bad-request', 'request body is not JSON');
      return void this.send(res, e.status, e.body);
    }
    const parsed = parseRequest(api, typeof body === 'object' && body ? (body as Record<string, unknown>) : {}, urlModel);
    if (typeof parsed === 'string') {
      const e = errorReply(api, 'bad-request', parsed);
      return void this.send(res, e.status, e.body);
    }
    this.statsValue.lastRequest = {
      api, path: url.pathname, model: parsed.model, n: parsed.n, temperature: parsed.temperature, topP: parsed.topP, maxTokens: parsed.maxTokens,
      headers: Object.keys(req.headers).sort(),
      bodyKeys: Object.keys(parsed.body).sort(),
    };
    const refusal =
      parsed.n > 1 && (this.config.rejectMultiple || (api === 'gemini' && /gemini-3/.test(parsed.model)))
        ? typeof this.config.rejectMultiple === 'string'
          ? this.config.rejectMultiple
          : api === 'gemini' ? 'Multiple candidates is not enabled for this model' : 'Only one completion choice is allowed'
        : this.config.rejectSampling && parsed.temperature !== undefined
          ? "Unsupported parameter: 'temperature' is not supported with this model."
          : this.config.rejectLogprobs && (parsed.body.logprobs !== undefined || (parsed.body.generationConfig as { responseLogprobs?: unknown } | undefined)?.responseLogprobs)
            ? 'logprobs is not supported with this model'
            : undefined;
    const refusedQuestion = this.index.find(parsed.user)?.refuse;
    if (refusal || refusedQuestion) {
      const e = errorReply(api, 'bad-request', refusal ?? refusedQuestion);
      return void this.send(res, e.status, e.body);
    }
    if (this.config.latencyMs) await this.later(this.config.latencyMs);
    const fault = this.faults.next();
    if (fault) this.statsValue.faults[fault] = (this.statsValue.faults[fault] ?? 0) + 1;
    await this.reply(api, parsed, fault, req, res);
  }

  private async reply(api: Api, parsed: ParsedRequest, fault: FaultKind | undefined, req: Req, res: Res): Promise<void> {
    const f = this.config.faults ?? {};
    switch (fault) {
      case 'rate-limit':
      case 'rate-limit-retry-after': {
        const e = errorReply(api, 'rate-limit');
        const headers: Record<string, string> = fault === 'rate-limit-retry-after' ? { 'retry-after': String(f.retryAfterSeconds ?? 1) } : {};
        return void this.send(res, e.status, e.body, headers);
      }
      case 'server-500':
      case 'server-503':
      case 'overloaded-529':
      case 'auth':
      case 'quota': {
        const e = errorReply(api, fault);
        return void this.send(res, e.status, e.body);
      }
      case 'drop':
        drop(req, res);
        return;
      case 'hang':
        await this.later(f.hangMs ?? 60_000);
        if (!gone(res)) drop(req, res);
        return;
      case 'malformed':
        return void this.send(res, 200, api === 'gemini' ? '{"candidates": [{"content": ' : '{"choices": [{"index": 0, "mess');
      case 'slow':
        await this.later(f.slowMs ?? 2000);
        break;
      default:
        break;
    }
    let n = Math.max(1, Math.min(parsed.n, this.config.maxN?.[api] ?? (api === 'anthropic' ? 1 : 128)));
    if (fault === 'fewer' && n > 1) n = Math.ceil(n / 2);
    if (gone(res)) return;
    // Indices are reserved only now, when the reply is about to be delivered.
    const q = this.index.find(parsed.user);
    const qid = q ? (q.id ?? q.match) : `unmatched:${fnv1a(parsed.user).toString(16)}`;
    const first = this.statsValue.served[qid] ?? 0;
    const inputTokens = Math.ceil((parsed.system.length + parsed.messages.reduce((s, m) => s + m.content.length, 0)) / 4);
    const replies: MockReply[] = [];
    for (let j = first; j < first + n; j++) {
      const custom = this.responder?.(parsed, j);
      const question: MockQuestion = q ?? { match: parsed.user, id: qid, answers: this.config.defaultAnswers ?? { 'I do not know': 1 } };
      const text = (typeof custom === 'object' ? custom.text : custom) ?? replyText(question, this.config.seed ?? 0, j);
      const logprobs = typeof custom === 'object' ? custom.logprobs : undefined;
      replies.push({ text, inputTokens, outputTokens: Math.ceil(text.length / 4), ...(logprobs ? { logprobs } : {}) });
    }
    if (this.send(res, 200, successBody(parsed, replies))) this.statsValue.served[qid] = first + n;
  }

  private control(method: string, path: string, raw: string, res: Res): void {
    if (method === 'GET' && path === '/__mock/stats') return void this.send(res, 200, this.stats(), {}, false);
    if (method === 'POST' && path === '/__mock/config') {
      try {
        this.configure(raw ? JSON.parse(raw) : {});
      } catch (e) {
        return void this.send(res, 400, { error: { message: `bad config JSON: ${(e as Error).message}` } }, {}, false);
      }
      return void this.send(res, 200, { ok: true }, {}, false);
    }
    if (method === 'POST' && path === '/__mock/reset') {
      this.resetStats();
      return void this.send(res, 200, { ok: true }, {}, false);
    }
    this.send(res, 404, { error: { message: `no control route ${method} ${path}` } }, {}, false);
  }
}

function readBody(req: Req): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer | string) => chunks.push(Buffer.from(c)));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

export const startMockServer = MockProviderServer.start;
