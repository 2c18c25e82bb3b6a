/**
 * A batch submitted to a provider's batch service and not yet collected, kept with its run so a
 * closed or reloaded tab does not forget it: the provider runs it and charges for it either way,
 * and submitting its requests again would pay twice. Only the batch's id is kept, never a key.
 * store/pending-batches.ts implements the port; batch/pending-batches.ts decides when a record
 * is written (before the wait starts) and cleared (once its results are stored).
 */

/** What the batch carries: a model's samples, a p(True) round of a model, or the judge's clustering. */
export type PendingBatchKind = 'samples' | 'p-true' | 'judge';

export interface PendingBatch {
  runId: string;
  /** The provider's id of the batch (what resuming polls). */
  batchId: string;
  kind: PendingBatchKind;
  /** The run's model (spec.models[i]) for samples and p(True); absent for the judge. */
  modelIndex?: number;
  /** The provider's preset id (openai, anthropic, gemini): whose key resuming needs. */
  provider: string;
  model: string;
  requests: number;
  /** When it was submitted (ISO 8601). */
  submittedAt: string;
}

export interface PendingBatchLedger {
  /** The run's pending batches, oldest first. */
  list(runId: string): Promise<PendingBatch[]>;
  record(batch: PendingBatch): Promise<void>;
  clear(runId: string, batchId: string): Promise<void>;
}

/** The port in memory (tests, and anything that keeps no database). */
export class MemoryPendingBatchLedger implements PendingBatchLedger {
  private readonly batches = new Map<string, PendingBatch>();
  async list(runId: string): Promise<PendingBatch[]> {
    return [...this.batches.values()].filter((b) => b.runId === runId).sort((a, b) => a.submittedAt.localeCompare(b.submittedAt));
  }
  async record(batch: PendingBatch): Promise<void> {
    this.batches.set(`${batch.runId}\n${batch.batchId}`, { ...batch });
  }
  async clear(runId: string, batchId: string): Promise<void> {
    this.batches.delete(`${runId}\n${batchId}`);
  }
}
