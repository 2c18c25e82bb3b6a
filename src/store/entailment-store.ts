/**
 * The model's EntailmentCache port over IndexedDB: one record per ordered pair (NLI model,
 * premise, hypothesis) under a hash of the three, so a key stays short however long the answers
 * are. Records are checked on read: one that is not a known label counts as not cached, so the
 * model is asked again rather than a class built on a damaged record. Writes go in batches.
 */
import { entailmentRecordKey, isNliLabel, type EntailmentCache, type EntailmentEntry, type EntailmentKey, type NliLabel } from '../model/entailment-cache';
import { BatchWriter } from '../model/write-batcher';
import { ENTAILMENT_STORE, type SemeceDatabase } from './db';

export { entailmentRecordKey } from '../model/entailment-cache';

export class IdbEntailmentCache implements EntailmentCache {
  private readonly writer: BatchWriter<{ key: string; label: NliLabel }>;

  constructor(private readonly db: SemeceDatabase) {
    this.writer = new BatchWriter(async (items) => {
      const tx = this.db.transaction(ENTAILMENT_STORE, 'readwrite');
      const storedAt = Date.now();
      for (const { key, label } of items) void tx.store.put({ key, label, storedAt });
      await tx.done;
    });
  }

  async get(keys: EntailmentKey[]): Promise<(NliLabel | undefined)[]> {
    const hashed = await Promise.all(keys.map(entailmentRecordKey));
    const tx = this.db.transaction(ENTAILMENT_STORE, 'readonly');
    const found = await Promise.all(hashed.map((k) => tx.store.get(k)));
    await tx.done;
    return found.map((r) => (isNliLabel(r?.label) ? r.label : undefined));
  }

  async put(entries: EntailmentEntry[]): Promise<void> {
    const items = await Promise.all(entries.map(async (e) => ({ key: await entailmentRecordKey(e), label: e.label })));
    return this.writer.add(items);
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}
