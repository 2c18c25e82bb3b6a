/**
 * One line of a batch request file per service, built from the same request bodies the providers
 * send interactively (openaiBody, anthropicBody, geminiBody), so a batched sample is the same
 * request as an interactive one and may share its cache key.
 *
 *   OpenAI     {"custom_id", "method": "POST", "url": "/v1/chat/completions", "body": {…}}
 *   Anthropic  {"custom_id", "params": {…}}          (the `requests` items of /v1/messages/batches)
 *   Gemini     {"key", "request": {…}}               (JSONL input file; inlined: {request, metadata: {key}})
 */
import { anthropicBody } from '../providers/anthropic.ts';
import { capabilitiesFor } from '../providers/capabilities.ts';
import { geminiBody } from '../providers/gemini.ts';
import { openaiBody } from '../providers/openai.ts';
import { getPreset } from '../providers/presets.ts';
import type { ChatMessage, GenerationSettings } from '../model/provider.ts';
import type { WireContext } from '../providers/wire.ts';
import type { BatchApi } from './service.ts';

/** A model as batch mode needs it: never a key. */
export interface BatchModel {
  kind: BatchApi;
  preset: string;
  baseUrl: string;
  model: string;
}

/** What one batch may hold (the services' documented limits). */
export const BATCH_LIMITS: Record<BatchApi, { maxRequests: number; maxBytes: number }> = {
  openai: { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 },
  anthropic: { maxRequests: 100_000, maxBytes: 256 * 1024 * 1024 },
  // Inlined requests: the create call itself must stay under 20 MB.
  gemini: { maxRequests: 100_000, maxBytes: 20 * 1024 * 1024 },
};

export const OPENAI_BATCH_ENDPOINT = '/v1/chat/completions';

export function wireContextFor(model: BatchModel): WireContext {
  const preset = getPreset(model.preset);
  return {
    preset: model.preset,
    baseUrl: model.baseUrl || preset?.baseUrl || '',
    model: model.model,
    caps: capabilitiesFor(model.preset, model.model),
    maxCompletionTokens: preset?.maxCompletionTokens ?? false,
  };
}

export function requestLine(
  api: BatchApi,
  ctx: WireContext,
  customId: string,
  messages: ChatMessage[],
  effective: Partial<GenerationSettings> & { n: number },
): Record<string, unknown> {
  const input = { messages, effective };
  if (api === 'openai') return { custom_id: customId, method: 'POST', url: OPENAI_BATCH_ENDPOINT, body: openaiBody(ctx, input) };
  if (api === 'anthropic') return { custom_id: customId, params: anthropicBody(ctx, input) };
  return { key: customId, request: geminiBody(ctx, input) };
}
