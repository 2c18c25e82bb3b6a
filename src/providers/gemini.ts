/**
 * Gemini generateContent wire format (native API: its OpenAI-compatible endpoint had no CORS), and
 * its batch mode. candidateCount > 1 only where the model allows it (2.x); otherwise parallel requests.
 */
import { ProviderError, httpError, kindFromStatus } from './errors.ts';
import type { Reply } from '../model/provider.ts';
import { type BatchPhase, type BatchResultFile, type BatchService, type BatchStatus, type ParsedLine, badLine, lineError } from './batch-service.ts';
import { ServiceCalls } from './batch-calls.ts';
import type { BatchCallsOptions, Capabilities, ParsedCompletion, WireContext, WireFormat, WireInput } from './wire-format.ts';
import { badShape, errorBody, isRecord, joinUrl, num, parseJsonBody } from './wire.ts';

/** The key goes in x-goog-api-key, never in the URL, so it stays out of logs and error texts. */
function geminiHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey) headers['x-goog-api-key'] = apiKey;
  return headers;
}

function geminiBody(_ctx: WireContext, input: WireInput): Record<string, unknown> {
  const e = input.effective;
  const system = input.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const generationConfig: Record<string, unknown> = {};
  if (e.temperature !== undefined) generationConfig.temperature = e.temperature;
  if (e.topP !== undefined) generationConfig.topP = e.topP;
  if (e.n > 1) generationConfig.candidateCount = e.n;
  if (e.maxTokens !== undefined) generationConfig.maxOutputTokens = e.maxTokens;
  if (e.json) generationConfig.responseMimeType = 'application/json';
  if (e.logprobs) {
    generationConfig.responseLogprobs = true;
    if (e.topLogprobs) generationConfig.logprobs = e.topLogprobs;
  }
  const body: Record<string, unknown> = {
    contents: input.messages
      .filter((m) => m.role !== 'system')
      .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] })),
    generationConfig,
  };
  if (system) body.systemInstruction = { parts: [{ text: system }] };
  return body;
}

function geminiUrl(ctx: WireContext): string {
  const model = ctx.model.replace(/^models\//, '');
  return joinUrl(ctx.baseUrl, `models/${encodeURIComponent(model)}:generateContent`);
}

function parseGeminiResponse(ctx: WireContext, text: string, status: number): ParsedCompletion {
  const json = parseJsonBody(text, ctx, status);
  if (!isRecord(json)) throw badShape(ctx, status, 'The reply was not a JSON object.');
  if (!Array.isArray(json.candidates)) {
    const feedback = isRecord(json.promptFeedback) ? ` (prompt blocked: ${String(json.promptFeedback.blockReason ?? '')})` : '';
    throw badShape(ctx, status, `The reply has no "candidates" list${feedback}.`);
  }
  const replies: Reply[] = json.candidates.filter(isRecord).map((c) => {
    const parts = isRecord(c.content) && Array.isArray(c.content.parts) ? c.content.parts : [];
    // Thinking models may return thought parts; only the answer text counts.
    const textOut = parts
      .filter((p): p is Record<string, unknown> => isRecord(p) && typeof p.text === 'string' && p.thought !== true)
      .map((p) => p.text as string)
      .join('');
    return { text: textOut, finishReason: typeof c.finishReason === 'string' ? c.finishReason : null };
  });
  const usage = isRecord(json.usageMetadata) ? json.usageMetadata : {};
  return {
    replies,
    usage: { inputTokens: num(usage.promptTokenCount), outputTokens: num(usage.candidatesTokenCount) + num(usage.thoughtsTokenCount) },
  };
}

/** google.rpc.RetryInfo carries retryDelay like "17s" when the header is absent. */
function retryDelayMs(details: unknown[]): number | null {
  for (const d of details) {
    if (isRecord(d) && typeof d.retryDelay === 'string') {
      const s = Number.parseFloat(d.retryDelay);
      if (Number.isFinite(s)) return s * 1000;
    }
  }
  return null;
}

function geminiError(ctx: WireContext, status: number, text: string, retryAfterMs: number | null): ProviderError {
  const { err, detail } = errorBody(text);
  const details = err && Array.isArray(err.details) ? err.details : [];
  const reasons = JSON.stringify(details);
  let kind = kindFromStatus(status);
  if (status === 400 && /API_KEY_INVALID|API key not valid/i.test(`${reasons} ${detail}`)) kind = 'auth';
  // A daily quota does not reset until midnight: stop rather than loop on it.
  if (status === 429 && /PerDay|per day|daily/i.test(`${reasons} ${detail}`)) kind = 'quota';
  return httpError({
    status,
    kind,
    detail,
    preset: ctx.preset,
    apiKey: ctx.apiKey,
    retryAfterMs: retryAfterMs ?? retryDelayMs(details),
  });
}

function geminiCapabilities(model: string): Partial<Capabilities> {
  // candidateCount > 1 returns 400 on Gemini 3.x and was refused on 1.5; 2.x allows up to 8.
  const m = /gemini-(\d+)/.exec(model);
  const major = m ? Number(m[1]) : 0;
  return { maxN: major === 2 ? 8 : 1, temperatureRange: [0, 2], logprobs: false };
}

/*
 * Batch mode: POST models/{model}:batchGenerateContent with inlined requests (each
 * {request, metadata: {key}}), poll the returned operation batches/{id} until done, then read the
 * inlined responses (each with its metadata.key) or, for large jobs, the responses file.
 * States: BATCH_STATE_PENDING, _RUNNING, _SUCCEEDED, _FAILED, _CANCELLED, _EXPIRED (the SDKs say JOB_STATE_*).
 *   request line  {"key", "request": {…}}     (JSONL input file; inlined: {request, metadata: {key}})
 *   result line   {"key", "response": {GenerateContentResponse}} | {"key", "error" | "status": {code, message, status}}
 */
const PHASE: Record<string, BatchPhase> = {
  PENDING: 'validating', QUEUED: 'validating', RUNNING: 'running', SUCCEEDED: 'completed', FAILED: 'failed', CANCELLED: 'cancelled', EXPIRED: 'expired',
};

function geminiStatus(v: unknown): BatchStatus {
  if (!isRecord(v) || typeof v.name !== 'string') throw new Error('The batch operation has no name.');
  const meta = isRecord(v.metadata) ? v.metadata : {};
  const raw = String(meta.state ?? (v.done ? 'BATCH_STATE_SUCCEEDED' : 'BATCH_STATE_PENDING'));
  const phase = PHASE[raw.replace(/^(BATCH|JOB)_STATE_/, '')] ?? 'running';
  const stats = isRecord(meta.batchStats) ? meta.batchStats : {};
  const error = isRecord(v.error) ? String(v.error.message ?? '') : undefined;
  const output = isRecord(v.response) ? v.response : isRecord(meta.output) ? meta.output : undefined;
  return {
    id: v.name, raw, phase: error && phase === 'completed' ? 'failed' : phase,
    ended: v.done === true || ['completed', 'expired', 'failed', 'cancelled'].includes(phase),
    counts: { total: num(Number(stats.requestCount)), succeeded: num(Number(stats.successfulRequestCount)), failed: num(Number(stats.failedRequestCount)) },
    message: error,
    output,
  };
}

class GeminiBatchService implements BatchService {
  readonly api = 'gemini' as const;
  private readonly calls: ServiceCalls;
  constructor(private readonly opts: BatchCallsOptions) {
    this.calls = new ServiceCalls(GEMINI, opts);
  }

  async submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus> {
    const model = this.opts.ctx.model.replace(/^models\//, '');
    const requests = lines.map((l) => ({ request: l.request, metadata: { key: l.key } }));
    const body = { batch: { display_name: `semece-${Date.now()}`, input_config: { requests: { requests } } } };
    return geminiStatus(await this.calls.json('POST', this.calls.url(`models/${encodeURIComponent(model)}:batchGenerateContent`), body, signal));
  }

  async status(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    return geminiStatus(await this.calls.json('GET', this.calls.url(id.startsWith('batches/') ? id : `batches/${id}`), undefined, signal));
  }

  async results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]> {
    const out = isRecord(status.output) ? status.output : {};
    const inlined = isRecord(out.inlinedResponses) ? out.inlinedResponses.inlinedResponses : undefined;
    if (Array.isArray(inlined)) {
      // Inlined responses become lines of the file format ({key, response | error}), read by one parser.
      const lines = inlined.map((r) => {
        const rec = isRecord(r) ? r : {};
        const key = isRecord(rec.metadata) ? rec.metadata.key : undefined;
        return JSON.stringify({ key, ...(rec.response !== undefined ? { response: rec.response } : { error: rec.error ?? null }) });
      });
      return [{ name: `Gemini inlined responses of ${status.id}`, lines: lines.join('\n') }];
    }
    if (typeof out.responsesFile === 'string') {
      const root = this.opts.ctx.baseUrl.replace(/\/(v1beta|v1)\/?$/, '');
      const version = /\/(v1beta|v1)\/?$/.exec(this.opts.ctx.baseUrl)?.[1] ?? 'v1beta';
      const url = `${root}/download/${version}/${out.responsesFile}:download?alt=media`;
      return [{ name: `Gemini responses file ${out.responsesFile}`, lines: await this.calls.stream(url, signal) }];
    }
    return [];
  }
}

function resultLine(v: Record<string, unknown>): ParsedLine {
  const id = v.key ?? (isRecord(v.metadata) ? v.metadata.key : undefined);
  if (typeof id !== 'string' || id === '') return badLine('no "key" string on this line');
  const err = v.error ?? v.status;
  if (err !== undefined && err !== null && !isRecord(v.response)) {
    const error = lineError(err, 'error');
    return { outcome: { customId: id, ok: false, error, expired: /expired|DEADLINE/i.test(`${error.code} ${error.message}`) } };
  }
  const resp = v.response;
  if (!isRecord(resp)) return badLine(`key ${id}: neither "response" nor "error" is set`, id);
  if (!Array.isArray(resp.candidates) || resp.candidates.length === 0) {
    const blocked = isRecord(resp.promptFeedback) ? ` (prompt blocked: ${String(resp.promptFeedback.blockReason ?? '')})` : '';
    return badLine(`key ${id}: the response has no candidates${blocked}`, id, 'missing-choices');
  }
  const replies: Reply[] = resp.candidates.filter(isRecord).map((c) => {
    const parts = isRecord(c.content) && Array.isArray(c.content.parts) ? c.content.parts : [];
    // Thinking models return thought parts: only the answer text counts, as interactively.
    const text = parts.filter((p) => isRecord(p) && typeof p.text === 'string' && p.thought !== true).map((p) => (p as { text: string }).text).join('');
    return { text, finishReason: typeof c.finishReason === 'string' ? c.finishReason : null };
  });
  const u = isRecord(resp.usageMetadata) ? resp.usageMetadata : {};
  return { outcome: { customId: id, ok: true, replies, usage: { inputTokens: num(u.promptTokenCount), outputTokens: num(u.candidatesTokenCount) + num(u.thoughtsTokenCount) } } };
}

/** The Gemini generateContent wire format (its row in wire-formats.ts). */
export const GEMINI: WireFormat = {
  id: 'gemini',
  headers: geminiHeaders,
  url: geminiUrl,
  body: geminiBody,
  parse: parseGeminiResponse,
  error: geminiError,
  capabilities: geminiCapabilities,
  noLogprobs: 'Gemini log-probabilities depend on the model and are often refused, so they are not asked for.',
  batch: {
    // Inlined requests: the create call itself must stay under 20 MB.
    limits: { maxRequests: 100_000, maxBytes: 20 * 1024 * 1024 },
    requestLine: (customId, body) => ({ key: customId, request: body }),
    resultLine,
    service: (opts) => new GeminiBatchService(opts),
  },
};
