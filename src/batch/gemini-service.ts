/**
 * Gemini batch mode: POST models/{model}:batchGenerateContent with inlined requests (each
 * {request, metadata: {key}}), poll the returned operation batches/{id} until done, then read the
 * inlined responses (each with its metadata.key) or, for large jobs, the responses file.
 * States: BATCH_STATE_PENDING, _RUNNING, _SUCCEEDED, _FAILED, _CANCELLED, _EXPIRED (the SDKs say JOB_STATE_*).
 */
import { isRecord, num } from '../providers/wire.ts';
import { ServiceCalls, type ServiceCallsOptions } from './service-calls.ts';
import type { BatchPhase, BatchResultFile, BatchService, BatchStatus } from './service.ts';

const PHASE: Record<string, BatchPhase> = {
  PENDING: 'validating', QUEUED: 'validating', RUNNING: 'running', SUCCEEDED: 'completed', FAILED: 'failed', CANCELLED: 'cancelled', EXPIRED: 'expired',
};

function geminiStatus(v: unknown): BatchStatus {
  if (!isRecord(v) || typeof v.name !== 'string') throw new Error('The batch operation has no name.');
  const meta = isRecord(v.metadata) ? v.metadata : {};
  const raw = String(meta.state ?? (v.done ? 'BATCH_STATE_SUCCEEDED' : 'BATCH_STATE_PENDING'));
  const phase = PHASE[raw.replace(/^(BATCH|JOB)_STATE_/, '')] ?? 'running';
  const stats = isRecord(meta.batchStats) ? meta.batchStats : {};
  const error = isRecord(v.error) ? String(v.error.message ?? '') : undefined;
  const output = isRecord(v.response) ? v.response : isRecord(meta.output) ? meta.output : undefined;
  return {
    id: v.name, raw, phase: error && phase === 'completed' ? 'failed' : phase,
    ended: v.done === true || ['completed', 'expired', 'failed', 'cancelled'].includes(phase),
    counts: { total: num(Number(stats.requestCount)), succeeded: num(Number(stats.successfulRequestCount)), failed: num(Number(stats.failedRequestCount)) },
    message: error,
    output,
  };
}

export class GeminiBatchService implements BatchService {
  readonly api = 'gemini' as const;
  private readonly calls: ServiceCalls;
  constructor(private readonly opts: ServiceCallsOptions) {
    this.calls = new ServiceCalls('gemini', opts);
  }

  async submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus> {
    const model = this.opts.ctx.model.replace(/^models\//, '');
    const requests = lines.map((l) => ({ request: l.request, metadata: { key: l.key } }));
    const body = { batch: { display_name: `semece-${Date.now()}`, input_config: { requests: { requests } } } };
    return geminiStatus(await this.calls.json('POST', this.calls.url(`models/${encodeURIComponent(model)}:batchGenerateContent`), body, signal));
  }

  async status(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    return geminiStatus(await this.calls.json('GET', this.calls.url(id.startsWith('batches/') ? id : `batches/${id}`), undefined, signal));
  }

  async results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]> {
    const out = isRecord(status.output) ? status.output : {};
    const inlined = isRecord(out.inlinedResponses) ? out.inlinedResponses.inlinedResponses : undefined;
    if (Array.isArray(inlined)) {
      // Inlined responses become lines of the file format ({key, response | error}), read by one parser.
      const lines = inlined.map((r) => {
        const rec = isRecord(r) ? r : {};
        const key = isRecord(rec.metadata) ? rec.metadata.key : undefined;
        return JSON.stringify({ key, ...(rec.response !== undefined ? { response: rec.response } : { error: rec.error ?? null }) });
      });
      return [{ name: `Gemini inlined responses of ${status.id}`, lines: lines.join('\n') }];
    }
    if (typeof out.responsesFile === 'string') {
      const root = this.opts.ctx.baseUrl.replace(/\/(v1beta|v1)\/?$/, '');
      const version = /\/(v1beta|v1)\/?$/.exec(this.opts.ctx.baseUrl)?.[1] ?? 'v1beta';
      const url = `${root}/download/${version}/${out.responsesFile}:download?alt=media`;
      return [{ name: `Gemini responses file ${out.responsesFile}`, lines: await this.calls.stream(url, signal) }];
    }
    return [];
  }
}
