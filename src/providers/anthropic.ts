/**
 * Anthropic Messages wire format, and its Message Batches service. No `n`: one reply per request
 * (the orchestrator sends parallel requests). Only temperature is sent (newer models reject
 * temperature with top_p); max_tokens is required.
 */
import { ProviderError, httpError, kindFromStatus } from './errors.ts';
import { type BatchResultFile, type BatchService, type BatchStatus, type ParsedLine, badLine, lineError } from './batch-service.ts';
import { ServiceCalls } from './batch-calls.ts';
import type { BatchCallsOptions, ParsedCompletion, WireContext, WireFormat, WireInput } from './wire-format.ts';
import { badShape, errorBody, isRecord, joinUrl, num, parseJsonBody } from './wire.ts';

/** The direct-browser-access header is what lets a page call the API with the user's key. */
function anthropicHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': '2023-06-01',
    'anthropic-dangerous-direct-browser-access': 'true',
  };
  if (apiKey) headers['x-api-key'] = apiKey;
  return headers;
}

const DEFAULT_ANTHROPIC_MAX_TOKENS = 1024;

function anthropicBody(ctx: WireContext, input: WireInput): Record<string, unknown> {
  const e = input.effective;
  const system = input.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const body: Record<string, unknown> = {
    model: ctx.model,
    max_tokens: e.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    messages: input.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content })),
  };
  if (system) body.system = system;
  if (e.temperature !== undefined) body.temperature = e.temperature;
  else if (e.topP !== undefined) body.top_p = e.topP;
  return body;
}

function parseAnthropicResponse(ctx: WireContext, text: string, status: number): ParsedCompletion {
  const json = parseJsonBody(text, ctx, status);
  if (!isRecord(json) || !Array.isArray(json.content)) throw badShape(ctx, status, 'The reply has no "content" list.');
  const reply = json.content
    .filter((b): b is Record<string, unknown> => isRecord(b) && b.type === 'text')
    .map((b) => String(b.text ?? ''))
    .join('');
  const usage = isRecord(json.usage) ? json.usage : {};
  return {
    replies: [{ text: reply, finishReason: typeof json.stop_reason === 'string' ? json.stop_reason : null }],
    usage: { inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens) },
  };
}

const SPEND = /enforced_spend_limit|spend_limit|billing|credit balance/i;

function anthropicError(ctx: WireContext, status: number, text: string, retryAfterMs: number | null): ProviderError {
  const { err, detail } = errorBody(text);
  const details = err && isRecord(err.details) ? String(err.details.error_code ?? '') : '';
  const signature = `${String(err?.type ?? '')} ${details} ${detail}`;
  let kind = kindFromStatus(status);
  // Spend limits arrive as 429 (or 400 "credit balance is too low"): a retry cannot succeed.
  if ((status === 429 || status === 400 || status === 402) && SPEND.test(signature)) kind = 'quota';
  return httpError({ status, kind, detail, preset: ctx.preset, apiKey: ctx.apiKey, retryAfterMs });
}

/*
 * Message Batches: POST /messages/batches with {requests: [{custom_id, params}]}, poll
 * /messages/batches/{id} until processing_status is "ended" (in_progress, canceling, ended), then
 * read the JSONL at results_url — every request's line, whether succeeded, errored, canceled or expired:
 *   {"custom_id", "result": {"type": "succeeded", "message": {…}}}
 *   | {"type": "errored", "error": {"type": "error", "error": {type, message}}} | {"type": "canceled" | "expired"}
 */
function anthropicStatus(v: unknown): BatchStatus {
  if (!isRecord(v) || typeof v.id !== 'string' || typeof v.processing_status !== 'string') throw new Error('The batch reply has no id or processing_status.');
  const c = isRecord(v.request_counts) ? v.request_counts : {};
  const ended = v.processing_status === 'ended';
  const expired = num(c.expired);
  const failed = num(c.errored) + num(c.canceled) + expired;
  return {
    id: v.id, raw: v.processing_status, ended,
    phase: !ended ? (v.processing_status === 'canceling' ? 'cancelling' : 'running') : expired > 0 ? 'expired' : num(c.canceled) > 0 && num(c.succeeded) === 0 ? 'cancelled' : 'completed',
    counts: { total: num(c.processing) + num(c.succeeded) + failed, succeeded: num(c.succeeded), failed },
    output: { resultsUrl: v.results_url ?? null },
  };
}

class AnthropicBatchService implements BatchService {
  readonly api = 'anthropic' as const;
  private readonly calls: ServiceCalls;
  constructor(opts: BatchCallsOptions) {
    this.calls = new ServiceCalls(ANTHROPIC, opts);
  }

  async submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus> {
    return anthropicStatus(await this.calls.json('POST', this.calls.url('messages/batches'), { requests: lines }, signal));
  }

  async status(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    return anthropicStatus(await this.calls.json('GET', this.calls.url(`messages/batches/${encodeURIComponent(id)}`), undefined, signal));
  }

  async results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]> {
    const url = (status.output as { resultsUrl?: unknown } | undefined)?.resultsUrl;
    if (typeof url !== 'string' || url === '') return [];
    return [{ name: `Anthropic results of ${status.id}`, lines: await this.calls.stream(url, signal) }];
  }
}

function resultLine(v: Record<string, unknown>): ParsedLine {
  const id = v.custom_id;
  if (typeof id !== 'string' || id === '') return badLine('no "custom_id" string on this line');
  const r = v.result;
  if (!isRecord(r)) return badLine(`custom_id ${id}: no "result" object`, id);
  switch (r.type) {
    case 'succeeded': {
      const m = r.message;
      if (!isRecord(m) || !Array.isArray(m.content)) return badLine(`custom_id ${id}: result.message has no content list`, id, 'missing-choices');
      const text = m.content.filter((b) => isRecord(b) && b.type === 'text').map((b) => String((b as Record<string, unknown>).text ?? '')).join('');
      const u = isRecord(m.usage) ? m.usage : {};
      return {
        outcome: {
          customId: id, ok: true,
          replies: [{ text, finishReason: typeof m.stop_reason === 'string' ? m.stop_reason : null }],
          usage: { inputTokens: num(u.input_tokens), outputTokens: num(u.output_tokens) },
        },
      };
    }
    case 'errored':
      return { outcome: { customId: id, ok: false, error: lineError(r.error, 'errored'), expired: false } };
    case 'canceled':
      return { outcome: { customId: id, ok: false, error: { code: 'canceled', message: 'the batch was canceled before this request ran' }, expired: false } };
    case 'expired':
      return { outcome: { customId: id, ok: false, error: { code: 'expired', message: 'the batch expired before this request ran' }, expired: true } };
    default:
      return badLine(`custom_id ${id}: unknown result type ${JSON.stringify(r.type)}`, id);
  }
}

/** The Anthropic Messages wire format (its row in wire-formats.ts). */
export const ANTHROPIC: WireFormat = {
  id: 'anthropic',
  headers: anthropicHeaders,
  url: (ctx) => joinUrl(ctx.baseUrl, 'messages'),
  body: anthropicBody,
  parse: parseAnthropicResponse,
  error: anthropicError,
  capabilities: () => ({ maxN: 1, temperatureRange: [0, 1], temperatureWithTopP: false }),
  noLogprobs: "Anthropic's Messages API returns no token log-probabilities.",
  batch: {
    limits: { maxRequests: 100_000, maxBytes: 256 * 1024 * 1024 },
    requestLine: (customId, body) => ({ custom_id: customId, params: body }),
    resultLine,
    service: (opts) => new AnthropicBatchService(opts),
  },
};
