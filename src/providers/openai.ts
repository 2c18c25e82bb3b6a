/**
 * OpenAI Chat Completions wire format, shared by OpenAI, xAI, Mistral, OpenRouter, Groq, Together,
 * DeepSeek and local servers (Ollama, LM Studio, vLLM, llama.cpp). Only Authorization and
 * Content-Type are sent: extra headers fail CORS preflights at some of these hosts.
 */
import { ProviderError, httpError, kindFromStatus } from './errors.ts';
import type { WireCall } from './http.ts';
import type { Reply, TokenLogprob } from '../model/provider.ts';
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

export function openaiBody(ctx: WireContext, input: WireInput): Record<string, unknown> {
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

export function openaiCall(ctx: WireContext, input: WireInput): WireCall<ParsedCompletion> {
  return {
    url: joinUrl(ctx.baseUrl, 'chat/completions'),
    headers: wireHeaders('openai', ctx.apiKey),
    body: openaiBody(ctx, input),
    parse: (text, status) => parseOpenaiResponse(ctx, text, status),
    error: (status, _headers, text, retryAfterMs) => openaiError(ctx, status, text, retryAfterMs),
  };
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

export function parseOpenaiResponse(ctx: WireContext, text: string, status: number): ParsedCompletion {
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

export function openaiError(ctx: WireContext, status: number, text: string, retryAfterMs: number | null): ProviderError {
  const { err, detail } = errorBody(text);
  const code = err ? `${String(err.code ?? '')} ${String(err.type ?? '')}` : '';
  let kind = kindFromStatus(status);
  // A 429 "insufficient_quota" means the money ran out: waiting does not help.
  if (status === 429 && QUOTA_CODES.test(code)) kind = 'quota';
  return httpError({ status, kind, detail, preset: ctx.preset, apiKey: ctx.apiKey, retryAfterMs });
}
