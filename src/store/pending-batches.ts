/**
 * Batches submitted and not yet collected (model/pending-batch.ts) over IndexedDB: one record per
 * (run, batch id), written before the wait starts and deleted once the batch's results are
 * stored, so a reloaded tab finds what the provider is still running. A record holds the batch's
 * id and counts only, never a key. One that does not read as a record is skipped, not shown.
 */
import type { PendingBatch, PendingBatchLedger } from '../model/pending-batch';
import type { SemeceDatabase } from './db';
import { isRecord } from './stored-records';
import { storageWriteError } from './write-errors';

/** The object store (added in version 9, db.ts). */
export const PENDING_BATCHES_STORE = 'pendingBatches';

const KINDS = new Set(['samples', 'p-true', 'judge']);

function isPendingBatch(v: unknown): v is PendingBatch {
  return isRecord(v) && typeof v.runId === 'string' && typeof v.batchId === 'string' && KINDS.has(v.kind as string)
    && typeof v.provider === 'string' && typeof v.model === 'string' && typeof v.requests === 'number' && typeof v.submittedAt === 'string'
    && (v.modelIndex === undefined || Number.isInteger(v.modelIndex));
}

export class IdbPendingBatchStore implements PendingBatchLedger {
  constructor(private readonly db: SemeceDatabase) {}

  async list(runId: string): Promise<PendingBatch[]> {
    const all = await this.db.getAllFromIndex(PENDING_BATCHES_STORE, 'byRun', runId);
    return all.filter(isPendingBatch).sort((a, b) => a.submittedAt.localeCompare(b.submittedAt));
  }

  async record(batch: PendingBatch): Promise<void> {
    // Only the fields of the shape: nothing else a caller's object carries reaches the disk.
    const { runId, batchId, kind, modelIndex, provider, model, requests, submittedAt } = batch;
    try {
      await this.db.put(PENDING_BATCHES_STORE, { runId, batchId, kind, ...(modelIndex === undefined ? {} : { modelIndex }), provider, model, requests, submittedAt });
    } catch (e) {
      throw await storageWriteError(e, 'the submitted batch');
    }
  }

  async clear(runId: string, batchId: string): Promise<void> {
    await this.db.delete(PENDING_BATCHES_STORE, [runId, batchId]);
  }
}
