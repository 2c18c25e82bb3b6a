/**
 * One line of a batch request file per service, built from the same request bodies the providers
 * send interactively (each wire format's `body`), so a batched sample is the same request as an
 * interactive one and may share its cache key. Each format's module says how its line wraps the
 * body (`batch.requestLine`); this file only asks the formats' table.
 */
import { capabilitiesFor } from '../providers/capabilities.ts';
import { getPreset } from '../providers/presets.ts';
import type { ChatMessage, GenerationSettings } from '../model/provider.ts';
import type { WireContext } from '../providers/wire-format.ts';
import { wireBatch, wireFormat } from '../providers/wire-formats.ts';
import type { BatchApi } from './service.ts';

/** A model as batch mode needs it: never a key. */
export interface BatchModel {
  kind: BatchApi;
  preset: string;
  baseUrl: string;
  model: string;
}

/** What one batch of this format may hold (the service's documented limits). */
export function batchLimits(api: BatchApi): { maxRequests: number; maxBytes: number } {
  return wireBatch(api).limits;
}

export function wireContextFor(model: BatchModel): WireContext {
  const preset = getPreset(model.preset);
  return {
    preset: model.preset,
    baseUrl: model.baseUrl || preset?.baseUrl || '',
    model: model.model,
    caps: capabilitiesFor(model.preset, model.model, model.kind),
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
  return wireBatch(api).requestLine(customId, wireFormat(api).body(ctx, { messages, effective }));
}
