/** The batch service of a model's wire format. */
import type { HttpDeps } from '../providers/http.ts';
import { baseUrlProblem } from '../providers/base-url.ts';
import { ProviderError } from '../providers/errors.ts';
import { AnthropicBatchService } from './anthropic-service.ts';
import { GeminiBatchService } from './gemini-service.ts';
import { OpenAiBatchService } from './openai-service.ts';
import { type BatchModel, wireContextFor } from './request-lines.ts';
import type { BatchService } from './service.ts';

export function batchServiceFor(model: BatchModel, apiKey: string | undefined, deps?: Partial<HttpDeps>): BatchService {
  const ctx = wireContextFor(model);
  // The providers' one base URL check: refused before any request, like createProvider's.
  const problem = baseUrlProblem(ctx.baseUrl, `The base URL for ${model.preset}`);
  if (problem) throw new ProviderError({ kind: 'bad-request', retryable: false, message: problem });
  const opts = { ctx, apiKey, deps };
  if (model.kind === 'openai') return new OpenAiBatchService(opts);
  if (model.kind === 'anthropic') return new AnthropicBatchService(opts);
  return new GeminiBatchService(opts);
}
