/**
 * OpenAI Batch API: upload the JSONL request file to /files (purpose "batch"), create a batch on
 * /v1/chat/completions with the 24h window, poll /batches/{id}, then read the output file
 * (successes) and the error file (failed and expired requests).
 * Statuses: validating, failed, in_progress, finalizing, completed, expired, cancelling, cancelled.
 */
import { isRecord, num } from '../providers/wire.ts';
import { ServiceCalls, type ServiceCallsOptions } from './service-calls.ts';
import type { BatchPhase, BatchResultFile, BatchService, BatchStatus } from './service.ts';
import { toJsonl } from './jsonl.ts';
import { OPENAI_BATCH_ENDPOINT } from './request-lines.ts';

const PHASE: Record<string, BatchPhase> = {
  validating: 'validating', in_progress: 'running', finalizing: 'finalizing', completed: 'completed',
  expired: 'expired', failed: 'failed', cancelling: 'cancelling', cancelled: 'cancelled',
};

function openaiStatus(v: unknown): BatchStatus {
  if (!isRecord(v) || typeof v.id !== 'string' || typeof v.status !== 'string') throw new Error('The batch reply has no id or status.');
  const phase = PHASE[v.status] ?? 'running';
  const c = isRecord(v.request_counts) ? v.request_counts : {};
  const errors = isRecord(v.errors) && Array.isArray(v.errors.data) ? v.errors.data.filter(isRecord) : [];
  return {
    id: v.id, phase, raw: v.status, ended: ['completed', 'expired', 'failed', 'cancelled'].includes(phase),
    counts: { total: num(c.total), succeeded: num(c.completed), failed: num(c.failed) },
    message: errors.length ? errors.map((e) => `${String(e.message ?? e.code ?? '')}${e.line ? ` (line ${String(e.line)})` : ''}`).join('; ') : undefined,
    output: { outputFileId: v.output_file_id ?? null, errorFileId: v.error_file_id ?? null },
  };
}

export class OpenAiBatchService implements BatchService {
  readonly api = 'openai' as const;
  private readonly calls: ServiceCalls;
  constructor(opts: ServiceCallsOptions) {
    this.calls = new ServiceCalls('openai', opts);
  }

  async submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus> {
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([toJsonl(lines)], { type: 'application/jsonl' }), 'semece-requests.jsonl');
    const file = await this.calls.json('POST', this.calls.url('files'), form, signal);
    if (!isRecord(file) || typeof file.id !== 'string') throw new Error('The file upload reply has no id.');
    const batch = await this.calls.json('POST', this.calls.url('batches'), { input_file_id: file.id, endpoint: OPENAI_BATCH_ENDPOINT, completion_window: '24h' }, signal);
    return openaiStatus(batch);
  }

  async status(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    return openaiStatus(await this.calls.json('GET', this.calls.url(`batches/${encodeURIComponent(id)}`), undefined, signal));
  }

  async results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]> {
    const out = status.output as { outputFileId: unknown; errorFileId: unknown } | undefined;
    const files: BatchResultFile[] = [];
    for (const [what, id] of [['output', out?.outputFileId], ['error', out?.errorFileId]] as const) {
      if (typeof id !== 'string' || id === '') continue;
      files.push({ name: `OpenAI ${what} file ${id}`, lines: await this.calls.stream(this.calls.url(`files/${encodeURIComponent(id)}/content`), signal) });
    }
    return files;
  }
}
