/**
 * OpenAI Chat Completions wire format, shared by OpenAI, xAI, Mistral, OpenRouter, Groq, Together,
 * DeepSeek and local servers (Ollama, LM Studio, vLLM, llama.cpp), and its Batch API. Only
 * Authorization and Content-Type are sent: extra headers fail CORS preflights at some of these hosts.
 */
import { ProviderError, httpError, kindFromStatus } from './errors.ts';
import type { Reply, TokenLogprob } from '../model/provider.ts';
import { type BatchPhase, type BatchResultFile, type BatchService, type BatchStatus, type ParsedLine, badLine, lineError } from './batch-service.ts';
import { ServiceCalls } from './batch-calls.ts';
import type { BatchCallsOptions, ParsedCompletion, WireContext, WireFormat, WireInput } from './wire-format.ts';
import { badShape, errorBody, isRecord, joinUrl, num, parseJsonBody } from './wire.ts';

function openaiHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

function openaiBody(ctx: WireContext, input: WireInput): Record<string, unknown> {
  const e = input.effective;
  const body: Record<string, unknown> = { model: ctx.model, messages: input.messages };
  // llama.cpp rejects any n ≠ 1, even n: 1 is better left to the default.
  if (e.n > 1) body.n = e.n;
  if (e.temperature !== undefined) body.temperature = e.temperature;
  if (e.topP !== undefined) body.top_p = e.topP;
  if (e.maxTokens !== undefined) body[ctx.maxCompletionTokens ? 'max_completion_tokens' : 'max_tokens'] = e.maxTokens;
  if (e.logprobs) {
    body.logprobs = true;
    if (e.topLogprobs !== undefined) body.top_logprobs = e.topLogprobs;
  }
  if (e.json) body.response_format = { type: 'json_object' };
  return body;
}

function parseLogprobs(v: unknown): TokenLogprob[] | undefined {
  if (!isRecord(v) || !Array.isArray(v.content)) return undefined;
  return v.content.filter(isRecord).map((t) => ({
    token: String(t.token ?? ''),
    logprob: num(t.logprob),
    top: Array.isArray(t.top_logprobs)
      ? t.top_logprobs.filter(isRecord).map((x) => ({ token: String(x.token ?? ''), logprob: num(x.logprob) }))
      : undefined,
  }));
}

function parseOpenaiResponse(ctx: WireContext, text: string, status: number): ParsedCompletion {
  const json = parseJsonBody(text, ctx, status);
  if (!isRecord(json)) throw badShape(ctx, status, 'The reply was not a JSON object.');
  // OpenRouter reports failures that happen after streaming began as a 200 with an error body.
  if (isRecord(json.error)) {
    const code = typeof json.error.code === 'number' ? json.error.code : 502;
    throw openaiError(ctx, code, JSON.stringify(json), null);
  }
  if (!Array.isArray(json.choices)) throw badShape(ctx, status, 'The reply has no "choices" list.');
  const replies: Reply[] = [];
  for (const c of json.choices) {
    if (!isRecord(c) || !isRecord(c.message)) throw badShape(ctx, status, 'A choice has no message.');
    const content = c.message.content;
    replies.push({
      text: typeof content === 'string' ? content : '',
      finishReason: typeof c.finish_reason === 'string' ? c.finish_reason : null,
      logprobs: parseLogprobs(c.logprobs),
    });
  }
  const usage = isRecord(json.usage) ? json.usage : {};
  return { replies, usage: { inputTokens: num(usage.prompt_tokens), outputTokens: num(usage.completion_tokens) } };
}

const QUOTA_CODES = /insufficient_quota|billing_hard_limit|insufficient_balance|quota_exceeded/;

function openaiError(ctx: WireContext, status: number, text: string, retryAfterMs: number | null): ProviderError {
  const { err, detail } = errorBody(text);
  const code = err ? `${String(err.code ?? '')} ${String(err.type ?? '')}` : '';
  let kind = kindFromStatus(status);
  // A 429 "insufficient_quota" means the money ran out: waiting does not help.
  if (status === 429 && QUOTA_CODES.test(code)) kind = 'quota';
  return httpError({ status, kind, detail, preset: ctx.preset, apiKey: ctx.apiKey, retryAfterMs });
}

/*
 * Batch API: upload the JSONL request file to /files (purpose "batch"), create a batch on
 * /v1/chat/completions with the 24h window, poll /batches/{id}, then read the output file
 * (successes) and the error file (failed and expired requests).
 * Statuses: validating, failed, in_progress, finalizing, completed, expired, cancelling, cancelled.
 *   request line  {"custom_id", "method": "POST", "url": "/v1/chat/completions", "body": {…}}
 *   result line   {"id", "custom_id", "response": {"status_code": 200, "body": {chat.completion}}, "error": null}
 *   error file    {"custom_id", "response": null | {status_code ≥ 400, body: {error}}, "error": {code, message}}
 */
const OPENAI_BATCH_ENDPOINT = '/v1/chat/completions';

const PHASE: Record<string, BatchPhase> = {
  validating: 'validating', in_progress: 'running', finalizing: 'finalizing', completed: 'completed',
  expired: 'expired', failed: 'failed', cancelling: 'cancelling', cancelled: 'cancelled',
};

function openaiStatus(v: unknown): BatchStatus {
  if (!isRecord(v) || typeof v.id !== 'string' || typeof v.status !== 'string') throw new Error('The batch reply has no id or status.');
  const phase = PHASE[v.status] ?? 'running';
  const c = isRecord(v.request_counts) ? v.request_counts : {};
  const errors = isRecord(v.errors) && Array.isArray(v.errors.data) ? v.errors.data.filter(isRecord) : [];
  return {
    id: v.id, phase, raw: v.status, ended: ['completed', 'expired', 'failed', 'cancelled'].includes(phase),
    counts: { total: num(c.total), succeeded: num(c.completed), failed: num(c.failed) },
    message: errors.length ? errors.map((e) => `${String(e.message ?? e.code ?? '')}${e.line ? ` (line ${String(e.line)})` : ''}`).join('; ') : undefined,
    output: { outputFileId: v.output_file_id ?? null, errorFileId: v.error_file_id ?? null },
  };
}

class OpenAiBatchService implements BatchService {
  readonly api = 'openai' as const;
  private readonly calls: ServiceCalls;
  constructor(opts: BatchCallsOptions) {
    this.calls = new ServiceCalls(OPENAI, opts);
  }

  async submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus> {
    const form = new FormData();
    form.append('purpose', 'batch');
    const jsonl = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
    form.append('file', new Blob([jsonl], { type: 'application/jsonl' }), 'semece-requests.jsonl');
    const file = await this.calls.json('POST', this.calls.url('files'), form, signal);
    if (!isRecord(file) || typeof file.id !== 'string') throw new Error('The file upload reply has no id.');
    const batch = await this.calls.json('POST', this.calls.url('batches'), { input_file_id: file.id, endpoint: OPENAI_BATCH_ENDPOINT, completion_window: '24h' }, signal);
    return openaiStatus(batch);
  }

  async status(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    return openaiStatus(await this.calls.json('GET', this.calls.url(`batches/${encodeURIComponent(id)}`), undefined, signal));
  }

  async results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]> {
    const out = status.output as { outputFileId: unknown; errorFileId: unknown } | undefined;
    const files: BatchResultFile[] = [];
    for (const [what, id] of [['output', out?.outputFileId], ['error', out?.errorFileId]] as const) {
      if (typeof id !== 'string' || id === '') continue;
      files.push({ name: `OpenAI ${what} file ${id}`, lines: await this.calls.stream(this.calls.url(`files/${encodeURIComponent(id)}/content`), signal) });
    }
    return files;
  }
}

function batchReplies(body: unknown, id: string): { replies: Reply[]; usage: { inputTokens: number; outputTokens: number } } | ParsedLine {
  if (!isRecord(body)) return badLine(`custom_id ${id}: response.body is not an object`, id);
  if (!Array.isArray(body.choices) || body.choices.length === 0) return badLine(`custom_id ${id}: the response has no choices`, id, 'missing-choices');
  const replies: Reply[] = [];
  for (const c of body.choices) {
    if (!isRecord(c) || !isRecord(c.message)) return badLine(`custom_id ${id}: a choice has no message`, id, 'missing-choices');
    // Token logprobs kept as the interactive reply keeps them (a p(True) or --logprobs batch reads them).
    const logprobs = parseLogprobs(c.logprobs);
    replies.push({ text: typeof c.message.content === 'string' ? c.message.content : '', finishReason: typeof c.finish_reason === 'string' ? c.finish_reason : null, ...(logprobs ? { logprobs } : {}) });
  }
  const u = isRecord(body.usage) ? body.usage : {};
  return { replies, usage: { inputTokens: num(u.prompt_tokens), outputTokens: num(u.completion_tokens) } };
}

function resultLine(v: Record<string, unknown>): ParsedLine {
  const id = v.custom_id;
  if (typeof id !== 'string' || id === '') return badLine('no "custom_id" string on this line');
  if (v.error !== null && v.error !== undefined) {
    const error = lineError(v.error, 'error');
    return { outcome: { customId: id, ok: false, error, expired: /expired/i.test(error.code) } };
  }
  if (!isRecord(v.response)) return badLine(`custom_id ${id}: neither "response" nor "error" is set`, id);
  const status = v.response.status_code;
  if (typeof status !== 'number') return badLine(`custom_id ${id}: response.status_code is missing`, id);
  if (status < 200 || status >= 300) {
    const error = { ...lineError(v.response.body, String(status)), status };
    return { outcome: { customId: id, ok: false, error, expired: false } };
  }
  const got = batchReplies(v.response.body, id);
  if ('problem' in got || 'outcome' in got) return got;
  return { outcome: { customId: id, ok: true, ...got } };
}

/** The OpenAI-compatible wire format (its row in wire-formats.ts). */
export const OPENAI: WireFormat = {
  id: 'openai',
  headers: openaiHeaders,
  url: (ctx) => joinUrl(ctx.baseUrl, 'chat/completions'),
  body: openaiBody,
  parse: parseOpenaiResponse,
  error: openaiError,
  // A server the preset table does not know (the "custom" preset, an id from elsewhere): n and
  // logprobs are tried, and the run-time checks lower them where refused.
  capabilities: () => ({ maxN: 128, logprobs: true, unknown: true }),
  batch: {
    limits: { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 },
    requestLine: (customId, body) => ({ custom_id: customId, method: 'POST', url: OPENAI_BATCH_ENDPOINT, body }),
    resultLine,
    service: (opts) => new OpenAiBatchService(opts),
  },
};
