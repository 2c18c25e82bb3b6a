/**
 * Gemini generateContent wire format (native API: its OpenAI-compatible endpoint had no CORS).
 * The key goes in x-goog-api-key, never in the URL, so it stays out of logs and error texts.
 * candidateCount > 1 only where the model allows it (2.x); otherwise parallel requests.
 */
import { ProviderError, httpError, kindFromStatus } from './errors.ts';
import type { WireCall } from './http.ts';
import type { Reply } from '../model/provider.ts';
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

export function geminiBody(_ctx: WireContext, input: WireInput): Record<string, unknown> {
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

export function geminiCall(ctx: WireContext, input: WireInput): WireCall<ParsedCompletion> {
  const model = ctx.model.replace(/^models\//, '');
  return {
    url: joinUrl(ctx.baseUrl, `models/${encodeURIComponent(model)}:generateContent`),
    headers: wireHeaders('gemini', ctx.apiKey),
    body: geminiBody(ctx, input),
    parse: (text, status) => parseGeminiResponse(ctx, text, status),
    error: (status, _h, text, retryAfterMs) => geminiError(ctx, status, text, retryAfterMs),
  };
}

export function parseGeminiResponse(ctx: WireContext, text: string, status: number): ParsedCompletion {
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

export function geminiError(ctx: WireContext, status: number, text: string, retryAfterMs: number | null): ProviderError {
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
