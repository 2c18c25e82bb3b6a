/**
 * OpenAI Batch API: upload the JSONL request file to /files (purpose "batch"), create a batch on
 * /v1/chat/completions with the 24h window, poll /batches/{id}, then read the output file
 * (successes) and the error file (failed and expired requests).
 * Statuses: validating, failed, in_progress, finalizing, completed, expired, cancelling, cancelled.
 */
import { isRecord, num } from '../providers/wire.ts';
import { BatchHttp, type BatchHttpOptions } from './batch-http.ts';
import type { BatchClient, BatchPhase, BatchResultFile, BatchStatus } from './client.ts';
import { toJsonl } from './lines.ts';
import { OPENAI_BATCH_ENDPOINT } from './request-lines.ts';

const PHASE: Record<string, BatchPhase> = {
  validating: 'validating', in_progress: 'running', finalizing: 'finalizing', completed: 'completed',
  expired: 'expired', failed: 'failed', cancelling: 'cancelling', cancelled: 'cancelled',
};

export function openaiStatus(v: unknown): BatchStatus {
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

export class OpenAiBatchClient implements BatchClient {
  readonly api = 'openai' as const;
  private readonly http: BatchHttp;
  constructor(opts: Omit<BatchHttpOptions, 'api'>) {
    this.http = new BatchHttp({ ...opts, api: 'openai' });
  }

  async submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus> {
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([toJsonl(lines)], { type: 'application/jsonl' }), 'semece-requests.jsonl');
    const file = await this.http.json('POST', this.http.url('files'), form, signal);
    if (!isRecord(file) || typeof file.id !== 'string') throw new Error('The file upload reply has no id.');
    const batch = await this.http.json('POST', this.http.url('batches'), { input_file_id: file.id, endpoint: OPENAI_BATCH_ENDPOINT, completion_window: '24h' }, signal);
    return openaiStatus(batch);
  }

  async status(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    return openaiStatus(await this.http.json('GET', this.http.url(`batches/${encodeURIComponent(id)}`), undefined, signal));
  }

  async results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]> {
    const out = status.output as { outputFileId: unknown; errorFileId: unknown } | undefined;
    const files: BatchResultFile[] = [];
    for (const [what, id] of [['output', out?.outputFileId], ['error', out?.errorFileId]] as const) {
      if (typeof id !== 'string' || id === '') continue;
      files.push({ name: `OpenAI ${what} file ${id}`, lines: await this.http.stream(this.http.url(`files/${encodeURIComponent(id)}/content`), signal) });
    }
    return files;
  }
}
