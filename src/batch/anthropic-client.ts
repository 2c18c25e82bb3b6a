/**
 * Anthropic Message Batches: POST /messages/batches with {requests: [{custom_id, params}]}, poll
 * /messages/batches/{id} until processing_status is "ended" (in_progress, canceling, ended), then
 * read the JSONL at results_url — every request's line, whether succeeded, errored, canceled or expired.
 */
import { isRecord, num } from '../providers/wire.ts';
import { BatchHttp, type BatchHttpOptions } from './batch-http.ts';
import type { BatchClient, BatchResultFile, BatchStatus } from './client.ts';

export function anthropicStatus(v: unknown): BatchStatus {
  if (!isRecord(v) || typeof v.id !== 'string' || typeof v.processing_status !== 'string') throw new Error('The batch reply has no id or processing_status.');
  const c = isRecord(v.request_counts) ? v.request_counts : {};
  const ended = v.processing_status === 'ended';
  const expired = num(c.expired);
  const failed = num(c.errored) + num(c.canceled) + expired;
  return {
    id: v.id, raw: v.processing_status, ended,
    phase: !ended ? (v.processing_status === 'canceling' ? 'cancelling' : 'running') : expired > 0 ? 'expired' : num(c.canceled) > 0 && num(c.succeeded) === 0 ? 'cancelled' : 'completed',
    counts: { total: num(c.processing) + num(c.succeeded) + failed, succeeded: num(c.succeeded), failed },
    output: { resultsUrl: v.results_url ?? null },
  };
}

export class AnthropicBatchClient implements BatchClient {
  readonly api = 'anthropic' as const;
  private readonly http: BatchHttp;
  constructor(opts: Omit<BatchHttpOptions, 'api'>) {
    this.http = new BatchHttp({ ...opts, api: 'anthropic' });
  }

  async submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus> {
    return anthropicStatus(await this.http.json('POST', this.http.url('messages/batches'), { requests: lines }, signal));
  }

  async status(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    return anthropicStatus(await this.http.json('GET', this.http.url(`messages/batches/${encodeURIComponent(id)}`), undefined, signal));
  }

  async results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]> {
    const url = (status.output as { resultsUrl?: unknown } | undefined)?.resultsUrl;
    if (typeof url !== 'string' || url === '') return [];
    return [{ name: `Anthropic results of ${status.id}`, lines: await this.http.stream(url, signal) }];
  }
}
