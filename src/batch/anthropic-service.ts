/**
 * Anthropic Message Batches: POST /messages/batches with {requests: [{custom_id, params}]}, poll
 * /messages/batches/{id} until processing_status is "ended" (in_progress, canceling, ended), then
 * read the JSONL at results_url — every request's line, whether succeeded, errored, canceled or expired.
 */
import { isRecord, num } from '../providers/wire.ts';
import { ServiceCalls, type ServiceCallsOptions } from './service-calls.ts';
import type { BatchResultFile, BatchService, BatchStatus } from './service.ts';

function anthropicStatus(v: unknown): BatchStatus {
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

export class AnthropicBatchService implements BatchService {
  readonly api = 'anthropic' as const;
  private readonly calls: ServiceCalls;
  constructor(opts: ServiceCallsOptions) {
    this.calls = new ServiceCalls('anthropic', opts);
  }

  async submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus> {
    return anthropicStatus(await this.calls.json('POST', this.calls.url('messages/batches'), { requests: lines }, signal));
  }

  async status(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    return anthropicStatus(await this.calls.json('GET', this.calls.url(`messages/batches/${encodeURIComponent(id)}`), undefined, signal));
  }

  async results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]> {
    const url = (status.output as { resultsUrl?: unknown } | undefined)?.resultsUrl;
    if (typeof url !== 'string' || url === '') return [];
    return [{ name: `Anthropic results of ${status.id}`, lines: await this.calls.stream(url, signal) }];
  }
}
