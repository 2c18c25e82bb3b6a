/**
 * OUT.batches.json, `semece sample --batch submit`'s record of the batches it submitted and has not
 * collected, as the pending batches' ledger (model/pending-batch.ts): the app keeps the same
 * record in IndexedDB, and both go through batch/pending-batches.ts's one rule (recorded before
 * the wait, cleared once stored, collected before anything is submitted again). The file keeps
 * the ids only, as it always has: `pending` (samples) and `pTruePending` (p(True)).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { PendingBatch, PendingBatchLedger } from '../src/model/pending-batch.ts';
import { writeFileAtomic } from './command-io.ts';

export class BatchIdsFile implements PendingBatchLedger {
  private constructor(
    private readonly path: string,
    private readonly pending: Set<string>,
    private readonly pTruePending: Set<string>,
  ) {}

  static async open(path: string): Promise<BatchIdsFile> {
    const state = existsSync(path) ? (JSON.parse(await readFile(path, 'utf8')) as { pending?: string[]; pTruePending?: string[] }) : {};
    return new BatchIdsFile(path, new Set(state.pending ?? []), new Set(state.pTruePending ?? []));
  }

  /** The ids as records of the one command's scope (`runId` is the file; no model index, provider or count is kept). */
  async list(runId: string): Promise<PendingBatch[]> {
    const as = (kind: PendingBatch['kind']) => (batchId: string): PendingBatch => ({ runId, batchId, kind, provider: '', model: '', requests: 0, submittedAt: '' });
    return [...[...this.pending].map(as('samples')), ...[...this.pTruePending].map(as('p-true'))];
  }

  async record(batch: PendingBatch): Promise<void> {
    (batch.kind === 'p-true' ? this.pTruePending : this.pending).add(batch.batchId);
    await this.save();
  }

  async clear(_runId: string, batchId: string): Promise<void> {
    this.pending.delete(batchId);
    this.pTruePending.delete(batchId);
    await this.save();
  }

  // Atomic: a torn file would lose the ids of batches already paid for.
  private save(): Promise<void> {
    return writeFileAtomic(this.path, JSON.stringify({ pending: [...this.pending], ...(this.pTruePending.size > 0 ? { pTruePending: [...this.pTruePending] } : {}) }));
  }
}
