/** The batch service of a model's wire format. */
import type { HttpDeps } from '../providers/http.ts';
import { AnthropicBatchService } from './anthropic-service.ts';
import { GeminiBatchService } from './gemini-service.ts';
import { OpenAiBatchService } from './openai-service.ts';
import { type BatchModel, wireContextFor } from './request-lines.ts';
import type { BatchService } from './service.ts';

export function batchServiceFor(model: BatchModel, apiKey: string | undefined, deps?: Partial<HttpDeps>): BatchService {
  const opts = { ctx: wireContextFor(model), apiKey, deps };
  if (model.kind === 'openai') return new OpenAiBatchService(opts);
  if (model.kind === 'anthropic') return new AnthropicBatchService(opts);
  return new GeminiBatchService(opts);
}
