/** Splitting a request set into batches that each stay under the service's count and size limits. */
import { batchLimits } from './request-lines.ts';
import type { BatchApi } from './service.ts';

export async function* inParts<T extends { line: Record<string, unknown> }>(
  api: BatchApi,
  requests: AsyncIterable<T>,
  limits: { maxRequests: number; maxBytes: number } = batchLimits(api),
): AsyncGenerator<T[]> {
  let part: T[] = [];
  let bytes = 0;
  for await (const r of requests) {
    // JSON length approximates UTF-8 bytes; 5% headroom covers non-ASCII text.
    const size = Math.ceil(JSON.stringify(r.line).length * 1.05) + 1;
    if (part.length > 0 && (part.length >= limits.maxRequests || bytes + size > limits.maxBytes)) {
      yield part;
      part = [];
      bytes = 0;
    }
    part.push(r);
    bytes += size;
  }
  if (part.length > 0) yield part;
}
