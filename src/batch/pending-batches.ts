/**
 * The one rule for batches submitted and not yet collected, for every caller (the app's batch
 * worker over IndexedDB, model/pending-batch.ts's port): a batch's id is recorded as soon as the
 * provider has accepted it, before any wait; the record is cleared only once the batch's results
 * are stored; and a later submission collects the recorded batches of the same kind first instead
 * of submitting their requests again (which would be paid twice). The CLI keeps the same ids in
 * OUT.batches.json (cli/commands/sample-batch.ts) through the same hooks of sample-batches.ts
 * and p-true-batches.ts.
 */
import type { PendingBatch, PendingBatchKind, PendingBatchLedger } from '../model/pending-batch.ts';

/** What one submission's batches have in common: the run, what they carry, and whose key they need. */
export interface PendingScope {
  runId: string;
  kind: PendingBatchKind;
  modelIndex?: number;
  provider: string;
  model: string;
}

/** The hooks sample-batches.ts, p-true-batches.ts and judge-run.ts take. */
export interface PendingHooks {
  /** Batches of this scope submitted earlier and not yet collected: collected first, never submitted again. */
  pendingIds: string[];
  onSubmitted: (batchId: string, requests: number) => Promise<void>;
  onCollected: (batchId: string) => Promise<void>;
}

const inScope = (b: PendingBatch, s: PendingScope) => b.kind === s.kind && b.modelIndex === s.modelIndex;

/** The scope's pending batches, and the hooks that record and clear them in the ledger. */
export async function pendingHooks(ledger: PendingBatchLedger, scope: PendingScope, now: () => Date = () => new Date()): Promise<PendingHooks> {
  const pendingIds = (await ledger.list(scope.runId)).filter((b) => inScope(b, scope)).map((b) => b.batchId);
  return {
    pendingIds,
    onSubmitted: (batchId, requests) => ledger.record({ ...scope, batchId, requests, submittedAt: now().toISOString() }),
    onCollected: (batchId) => ledger.clear(scope.runId, batchId),
  };
}
