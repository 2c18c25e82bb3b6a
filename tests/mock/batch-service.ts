/**
 * The providers' batch endpoints on the loopback mock, mounted by provider-server.ts:
 *
 *   OpenAI     POST /v1/files (multipart, purpose=batch) · GET /v1/files/{id}/content
 *              POST /v1/batches · GET /v1/batches/{id} · POST /v1/batches/{id}/cancel
 *   Anthropic  POST /v1/messages/batches · GET /v1/messages/batches/{id} · GET …/{id}/results
 *   Gemini     POST /v1beta/models/{model}:batchGenerateContent (inlined requests) · GET /v1beta/batches/{id}
 *
 * A batch is processed when it has been polled `pollsUntilDone` times. Replies come from the same
 * per-question answer distributions and the same `served` counters as interactive requests, so a
 * test can check that no sample was ever paid for twice. Faults: items failing by id or every k-th,
 * a batch expiring after its first K items (the rest "expired"), a batch refused whole.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The parts of a request and response used here: HTTP/1.1 and HTTP/2 objects both fit. */
type BatchReq = { method?: string; headers: IncomingHttpHeaders };
type BatchRes = { destroyed: boolean; writeHead(status: number, headers: Record<string, string>): unknown; end(text: string): unknown };
import { QuestionIndex, fnv1a, replyText, type MockQuestion } from './answers.ts';
import { type Api, type OpenAiLogprobEntry, type ParsedRequest, errorReply, parseRequest, presentedKey, successBody } from './wire-formats.ts';

export interface BatchMockConfig {
  /** Status polls before a batch has run (default 2). */
  pollsUntilDone?: number;
  /** Items whose custom id is listed fail with a 500-style error. */
  failIds?: string[];
  /** Every k-th item (1-based position in the batch) fails. */
  failEvery?: number;
  /** Only the first K items run; the batch then expires and the rest are "expired". */
  expireAfter?: number;
  /** The whole batch is refused (validation failure) with this message. */
  rejectBatch?: string;
  /** Replies and item errors carry the key the server was given (as a careless server might), to test that clients scrub it. */
  echoKey?: boolean;
}

/** What the batch service needs from the server it is mounted on. */
export interface BatchHost {
  config(): { questions?: MockQuestion[]; defaultAnswers?: Record<string, number>; seed?: number; apiKey?: string | null; maxN?: Partial<Record<Api, number>> };
  served(): Record<string, number>;
  /** The server's custom replies (provider-server.ts `responder`), so a batch answers as an interactive request would. */
  responder?(): ((req: ParsedRequest, index: number) => string | { text: string; logprobs?: OpenAiLogprobEntry[] } | undefined) | undefined;
}

interface Item {
  id: string;
  body: Record<string, unknown>;
}

interface MockBatch {
  api: Api;
  id: string;
  model: string;
  items: Item[];
  polls: number;
  state: 'pending' | 'ended' | 'expired' | 'failed' | 'cancelled';
  results: { id: string; ok: boolean; expired: boolean; line: Record<string, unknown> }[];
  error?: string;
  outputFileId?: string;
  errorFileId?: string;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, x-api-key, x-goog-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
  'access-control-expose-headers': 'Retry-After',
};

const ROUTES: { method: string; re: RegExp; api: Api; name: string }[] = [
  { method: 'POST', re: /\/files$/, api: 'openai', name: 'upload' },
  { method: 'GET', re: /\/files\/([^/]+)\/content$/, api: 'openai', name: 'file' },
  { method: 'POST', re: /(?<!messages)\/batches$/, api: 'openai', name: 'create' },
  { method: 'GET', re: /(?<!messages)\/batches\/([^/:]+)$/, api: 'openai', name: 'get' },
  { method: 'POST', re: /(?<!messages)\/batches\/([^/]+)\/cancel$/, api: 'openai', name: 'cancel' },
  { method: 'POST', re: /\/messages\/batches$/, api: 'anthropic', name: 'create' },
  { method: 'GET', re: /\/messages\/batches\/([^/]+)$/, api: 'anthropic', name: 'get' },
  { method: 'GET', re: /\/messages\/batches\/([^/]+)\/results$/, api: 'anthropic', name: 'results' },
  { method: 'POST', re: /\/models\/([^/:]+):batchGenerateContent$/, api: 'gemini', name: 'create' },
];

export class MockBatchService {
  private cfg: BatchMockConfig = {};
  private readonly files = new Map<string, string>();
  private readonly batches = new Map<string, MockBatch>();
  private seq = 0;
  /** Batches created, per API (for assertions). */
  readonly created: Record<Api, number> = { openai: 0, anthropic: 0, gemini: 0 };

  constructor(private readonly host: BatchHost) {}

  configure(cfg: BatchMockConfig): void {
    this.cfg = { ...cfg };
  }

  handles(method: string, path: string): boolean {
    return this.route(method, path) !== undefined || (method === 'GET' && /\/v1beta\/batches\/[^/]+$/.test(path));
  }

  private route(method: string, path: string) {
    for (const r of ROUTES) {
      const m = r.re.exec(path);
      // A Gemini batch GET is /v1beta/batches/{id}; it must not be read as OpenAI's.
      if (m && r.method === method && !(r.api === 'openai' && r.name === 'get' && path.includes('/v1beta/'))) return { ...r, arg: m[1] };
    }
    if (method === 'GET') {
      const g = /\/v1beta\/batches\/([^/]+)$/.exec(path);
      if (g) return { method, re: /x/, api: 'gemini' as Api, name: 'get', arg: g[1] };
    }
    return undefined;
  }

  private send(res: BatchRes, status: number, body: unknown, type = 'application/json'): void {
    if (res.destroyed) return;
    res.writeHead(status, { ...CORS, 'content-type': type });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  }

  async handle(req: BatchReq, url: URL, raw: string, res: BatchRes): Promise<void> {
    const r = this.route(req.method ?? '', url.pathname)!;
    const expected = this.host.config().apiKey;
    const key = presentedKey(r.api, req.headers);
    if (expected !== null && expected !== undefined && key !== expected) {
      const e = errorReply(r.api, 'auth', key ? 'Incorrect API key provided.' : 'No API key provided.');
      return this.send(res, e.status, e.body);
    }
    try {
      if (r.api === 'openai') return await this.openai(r.name, r.arg, req, raw, res);
      if (r.api === 'anthropic') return this.anthropic(r.name, r.arg, String(req.headers.host ?? url.host), raw, res);
      return this.gemini(r.name, r.arg, raw, res);
    } catch (e) {
      const err = errorReply(r.api, 'bad-request', (e as Error).message);
      this.send(res, err.status, err.body);
    }
  }

  // ---- OpenAI ----
  private async openai(name: string, arg: string | undefined, req: BatchReq, raw: string, res: BatchRes): Promise<void> {
    if (name === 'upload') {
      const form = await new Response(raw, { headers: { 'content-type': String(req.headers['content-type'] ?? '') } }).formData();
      const file = form.get('file');
      if (form.get('purpose') !== 'batch' || !(file instanceof Blob)) throw new Error('purpose must be "batch" and a file is required');
      const id = `file-${++this.seq}`;
      const text = await file.text();
      this.files.set(id, text);
      return this.send(res, 200, { id, object: 'file', bytes: text.length, purpose: 'batch', filename: (file as File).name ?? 'upload.jsonl' });
    }
    if (name === 'file') {
      const text = this.files.get(arg!);
      if (text === undefined) return this.send(res, 404, errorReply('openai', 'not-found', `No such File object: ${arg}`).body);
      return this.send(res, 200, text, 'application/jsonl');
    }
    if (name === 'create') {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const text = this.files.get(String(body.input_file_id));
      if (text === undefined) throw new Error(`input_file_id ${String(body.input_file_id)} not found`);
      if (body.endpoint !== '/v1/chat/completions' || body.completion_window !== '24h') throw new Error('endpoint must be /v1/chat/completions and completion_window 24h');
      const items = text.split('\n').filter((l) => l.trim()).map((l) => {
        const v = JSON.parse(l) as { custom_id: string; body: Record<string, unknown> };
        return { id: v.custom_id, body: v.body };
      });
      const b = this.newBatch('openai', String(items[0]?.body.model ?? ''), items);
      return this.send(res, 200, this.openaiView(b));
    }
    const b = this.batches.get(arg!);
    if (!b || b.api !== 'openai') return this.send(res, 404, errorReply('openai', 'not-found', `No batch ${arg}`).body);
    if (name === 'cancel') {
      if (b.state === 'pending') b.state = 'cancelled';
      return this.send(res, 200, this.openaiView(b));
    }
    this.poll(b);
    this.send(res, 200, this.openaiView(b));
  }

  private openaiView(b: MockBatch): Record<string, unknown> {
    const status =
      b.state === 'pending' ? (b.polls === 0 ? 'validating' : 'in_progress')
      : b.state === 'ended' ? 'completed' : b.state;
    const failed = b.results.filter((r) => !r.ok).length;
    return {
      id: b.id, object: 'batch', endpoint: '/v1/chat/completions', status, completion_window: '24h',
      output_file_id: b.outputFileId ?? null, error_file_id: b.errorFileId ?? null,
      errors: b.error ? { object: 'list', data: [{ code: 'invalid_request', message: b.error, line: 1 }] } : null,
      request_counts: { total: b.items.length, completed: b.results.length - failed, failed },
    };
  }

  // ---- Anthropic ----
  private anthropic(name: string, arg: string | undefined, host: string, raw: string, res: BatchRes): void {
    if (name === 'create') {
      const body = JSON.parse(raw) as { requests?: { custom_id: string; params: Record<string, unknown> }[] };
      if (!Array.isArray(body.requests) || body.requests.length === 0) throw new Error('requests: at least one request is required');
      if (this.cfg.rejectBatch) throw new Error(this.cfg.rejectBatch);
      const b = this.newBatch('anthropic', String(body.requests[0].params.model ?? ''), body.requests.map((r) => ({ id: r.custom_id, body: r.params })));
      return this.send(res, 200, this.anthropicView(b, host));
    }
    const b = this.batches.get(arg!);
    if (!b || b.api !== 'anthropic') return this.send(res, 404, errorReply('anthropic', 'not-found', `No batch ${arg}`).body);
    if (name === 'results') {
      if (b.state === 'pending') return this.send(res, 400, errorReply('anthropic', 'bad-request', 'batch has not ended').body);
      return this.send(res, 200, b.results.map((r) => JSON.stringify(r.line)).join('\n') + '\n', 'application/x-jsonl');
    }
    this.poll(b);
    this.send(res, 200, this.anthropicView(b, host));
  }

  private anthropicView(b: MockBatch, host: string): Record<string, unknown> {
    const count = (t: string) => b.results.filter((r) => (r.line.result as { type: string }).type === t).length;
    const ended = b.state !== 'pending';
    return {
      id: b.id, type: 'message_batch', processing_status: ended ? 'ended' : 'in_progress',
      request_counts: { processing: ended ? 0 : b.items.length, succeeded: count('succeeded'), errored: count('errored'), canceled: count('canceled'), expired: count('expired') },
      results_url: ended ? `http://${host}/v1/messages/batches/${b.id}/results` : null,
    };
  }

  // ---- Gemini ----
  private gemini(name: string, arg: string | undefined, raw: string, res: BatchRes): void {
    if (name === 'create') {
      const body = JSON.parse(raw) as { batch?: { display_name?: string; input_config?: { requests?: { requests?: { request: Record<string, unknown>; metadata?: { key?: string } }[] } } } };
      const reqs = body.batch?.input_config?.requests?.requests;
      if (!Array.isArray(reqs) || reqs.length === 0) throw new Error('batch.input_config.requests.requests is required');
      const b = this.newBatch('gemini', decodeURIComponent(arg!), reqs.map((r, i) => ({ id: r.metadata?.key ?? `#${i}`, body: r.request })));
      return this.send(res, 200, this.geminiView(b));
    }
    const b = this.batches.get(arg!);
    if (!b || b.api !== 'gemini') return this.send(res, 404, errorReply('gemini', 'not-found', `No batch ${arg}`).body);
    this.poll(b);
    this.send(res, 200, this.geminiView(b));
  }

  private geminiView(b: MockBatch): Record<string, unknown> {
    const state = { pending: b.polls === 0 ? 'BATCH_STATE_PENDING' : 'BATCH_STATE_RUNNING', ended: 'BATCH_STATE_SUCCEEDED', expired: 'BATCH_STATE_EXPIRED', failed: 'BATCH_STATE_FAILED', cancelled: 'BATCH_STATE_CANCELLED' }[b.state];
    const done = b.state !== 'pending';
    const ran = b.results.filter((r) => !r.expired);
    const view: Record<string, unknown> = {
      name: `batches/${b.id}`,
      metadata: { '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch', model: `models/${b.model}`, state, batchStats: { requestCount: String(b.items.length), successfulRequestCount: String(ran.filter((r) => r.ok).length), failedRequestCount: String(ran.filter((r) => !r.ok).length) } },
      done,
    };
    if (b.state === 'failed') view.error = { code: 400, message: b.error ?? 'batch failed' };
    else if (done) {
      view.response = {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput',
        inlinedResponses: { inlinedResponses: ran.map((r) => ({ ...(r.line.response ? { response: r.line.response } : { error: r.line.error }), metadata: { key: r.id } })) },
      };
    }
    return view;
  }

  // ---- processing ----
  private newBatch(api: Api, model: string, items: Item[]): MockBatch {
    this.created[api]++;
    const id = api === 'openai' ? `batch_${++this.seq}` : api === 'anthropic' ? `msgbatch_${++this.seq}` : `mockbatch${++this.seq}`;
    const b: MockBatch = { api, id, model, items, polls: 0, state: 'pending', results: [] };
    if (this.cfg.rejectBatch && api !== 'anthropic') {
      b.state = 'failed';
      b.error = this.cfg.rejectBatch;
    }
    this.batches.set(id, b);
    return b;
  }

  private poll(b: MockBatch): void {
    if (b.state !== 'pending') return;
    b.polls++;
    if (b.polls < (this.cfg.pollsUntilDone ?? 2)) return;
    const expireAfter = this.cfg.expireAfter ?? Infinity;
    b.items.forEach((item, i) => {
      if (i >= expireAfter) return b.results.push({ id: item.id, ok: false, expired: true, line: this.expiredLine(b.api, item.id) });
      const fails = this.cfg.failIds?.includes(item.id) || (this.cfg.failEvery ? (i + 1) % this.cfg.failEvery === 0 : false);
      const echoed = this.cfg.echoKey ? `mock item failure for key ${this.host.config().apiKey}` : undefined;
      if (fails) return b.results.push({ id: item.id, ok: false, expired: false, line: this.errorLine(b.api, item.id, echoed) });
      b.results.push({ id: item.id, ok: true, expired: false, line: this.successLine(b, item) });
    });
    b.state = Number.isFinite(expireAfter) && expireAfter < b.items.length ? 'expired' : 'ended';
    if (b.api === 'openai') {
      const ok = b.results.filter((r) => r.ok);
      const bad = b.results.filter((r) => !r.ok);
      if (ok.length) this.files.set((b.outputFileId = `file-${++this.seq}`), ok.map((r) => JSON.stringify(r.line)).join('\n') + '\n');
      if (bad.length) this.files.set((b.errorFileId = `file-${++this.seq}`), bad.map((r) => JSON.stringify(r.line)).join('\n') + '\n');
    }
  }

  private successLine(b: MockBatch, item: Item): Record<string, unknown> {
    const parsed = parseRequest(b.api, item.body, b.model);
    if (typeof parsed === 'string') return this.errorLine(b.api, item.id, parsed);
    const cfg = this.host.config();
    const served = this.host.served();
    const q = new QuestionIndex(cfg.questions ?? []).find(parsed.user);
    const qid = q ? (q.id ?? q.match) : `unmatched:${fnv1a(parsed.user).toString(16)}`;
    const question: MockQuestion = q ?? { match: parsed.user, id: qid, answers: cfg.defaultAnswers ?? { 'I do not know': 1 } };
    const n = Math.max(1, Math.min(parsed.n, cfg.maxN?.[b.api] ?? (b.api === 'anthropic' ? 1 : 128)));
    const first = served[qid] ?? 0;
    served[qid] = first + n;
    const inputTokens = Math.ceil(parsed.user.length / 4);
    const responder = this.host.responder?.();
    const replies = Array.from({ length: n }, (_, j) => {
      const custom = responder?.(parsed, first + j);
      const plain = (typeof custom === 'object' ? custom.text : custom) ?? replyText(question, cfg.seed ?? 0, first + j);
      const logprobs = typeof custom === 'object' ? custom.logprobs : undefined;
      const text = this.cfg.echoKey ? plain.replace(/^Answer: (.*)$/m, `Answer: $1 (your key is ${cfg.apiKey}, or ${encodeURIComponent(cfg.apiKey ?? '')})`) : plain;
      return { text, inputTokens, outputTokens: Math.ceil(text.length / 4), ...(logprobs ? { logprobs } : {}) };
    });
    const body = successBody(parsed, replies);
    if (b.api === 'openai') return { id: `batch_req_${item.id}`, custom_id: item.id, response: { status_code: 200, request_id: 'req', body }, error: null };
    if (b.api === 'anthropic') return { custom_id: item.id, result: { type: 'succeeded', message: body } };
    return { key: item.id, response: body };
  }

  private errorLine(api: Api, id: string, message = 'mock item failure'): Record<string, unknown> {
    if (api === 'openai') return { id: `batch_req_${id}`, custom_id: id, response: { status_code: 500, request_id: 'req', body: errorReply('openai', 'server-500', message).body }, error: null };
    if (api === 'anthropic') return { custom_id: id, result: { type: 'errored', error: errorReply('anthropic', 'server-500', message).body } };
    return { key: id, error: { code: 500, message, status: 'INTERNAL' } };
  }

  private expiredLine(api: Api, id: string): Record<string, unknown> {
    if (api === 'openai') return { id: `batch_req_${id}`, custom_id: id, response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } };
    if (api === 'anthropic') return { custom_id: id, result: { type: 'expired' } };
    return { key: id, error: { code: 4, message: 'expired', status: 'DEADLINE_EXCEEDED' } };
  }
}
