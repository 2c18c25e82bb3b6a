/** The batch service of a model's wire format, from the formats' table. */
import type { HttpDeps } from '../providers/http.ts';
import { baseUrlProblem } from '../providers/base-url.ts';
import { ProviderError } from '../providers/errors.ts';
import { providerName } from '../providers/presets.ts';
import { WIRE_FORMATS, type WireFormats, wireBatch } from '../providers/wire-formats.ts';
import { type BatchModel, wireContextFor } from './request-lines.ts';
import type { BatchService } from './service.ts';

export function batchServiceFor(model: BatchModel, apiKey: string | undefined, deps?: Partial<HttpDeps>, formats: WireFormats = WIRE_FORMATS): BatchService {
  const ctx = wireContextFor(model);
  // The providers' one base URL check: refused before any request, like createProvider's.
  const problem = baseUrlProblem(ctx.baseUrl, `The base URL for ${providerName(model.preset)}`);
  if (problem) throw new ProviderError({ kind: 'bad-request', retryable: false, message: problem });
  return wireBatch(model.kind, formats).service({ ctx, apiKey, deps });
}
