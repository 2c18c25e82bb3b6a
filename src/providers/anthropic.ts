/**
 * Anthropic Messages wire format. No `n`: one reply per request (the orchestrator sends parallel
 * requests). Only temperature is sent (newer models reject temperature with top_p); max_tokens is
 * required. The direct-browser-access header is what lets a page call the API with the user's key.
 */
import { ProviderError, httpError, kindFromStatus } from './errors.ts';
import type { WireCall } from './http.ts';
import {
  type ParsedCompletion,
  type WireContext,
  type WireInput,
  badShape,
  errorBody,
  isRecord,
  joinUrl,
  num,
  parseJsonBody,
  wireHeaders,
} from './wire.ts';

export const DEFAULT_ANTHROPIC_MAX_TOKENS = 1024;

export function anthropicBody(ctx: WireContext, input: WireInput): Record<string, unknown> {
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

export function anthropicCall(ctx: WireContext, input: WireInput): WireCall<ParsedCompletion> {
  return {
    url: joinUrl(ctx.baseUrl, 'messages'),
    headers: wireHeaders('anthropic', ctx.apiKey),
    body: anthropicBody(ctx, input),
    parse: (text, status) => parseAnthropicResponse(ctx, text, status),
    error: (status, _h, text, retryAfterMs) => anthropicError(ctx, status, text, retryAfterMs),
  };
}

export function parseAnthropicResponse(ctx: WireContext, text: string, status: number): ParsedCompletion {
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

export function anthropicError(ctx: WireContext, status: number, text: string, retryAfterMs: number | null): ProviderError {
  const { err, detail } = errorBody(text);
  const details = err && isRecord(err.details) ? String(err.details.error_code ?? '') : '';
  const signature = `${String(err?.type ?? '')} ${details} ${detail}`;
  let kind = kindFromStatus(status);
  // Spend limits arrive as 429 (or 400 "credit balance is too low"): a retry cannot succeed.
  if ((status === 429 || status === 400 || status === 402) && SPEND.test(signature)) kind = 'quota';
  return httpError({ status, kind, detail, preset: ctx.preset, apiKey: ctx.apiKey, retryAfterMs });
}
