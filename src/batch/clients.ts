/** The batch client for a model's wire format. */
import { AnthropicBatchClient } from './anthropic-client.ts';
import type { BatchHttpDeps } from './batch-http.ts';
import type { BatchClient } from './client.ts';
import { GeminiBatchClient } from './gemini-client.ts';
import { OpenAiBatchClient } from './openai-client.ts';
import { type BatchModel, wireContextFor } from './request-lines.ts';

export function createBatchClient(model: BatchModel, apiKey: string | undefined, deps?: Partial<BatchHttpDeps>): BatchClient {
  const opts = { ctx: wireContextFor(model), apiKey, deps };
  if (model.kind === 'openai') return new OpenAiBatchClient(opts);
  if (model.kind === 'anthropic') return new AnthropicBatchClient(opts);
  return new GeminiBatchClient(opts);
}
