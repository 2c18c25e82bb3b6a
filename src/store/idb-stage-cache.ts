/**
 * The stage cache (model/stage-cache.ts: clusterings and computed grades by the keys of
 * pipeline/stage-cache-keys.ts) over IndexedDB.
 */
import type { SemeceDatabase } from './db';
import type { StageCache, StoredClustering, StoredGrade } from '../model/stage-cache';
import { readBySpans } from './span-reads';

export class IdbStageCache implements StageCache {
  constructor(private readonly db: SemeceDatabase) {}

  /** A run's questions' clusterings, read a span of keys at a time where the store allows (span-reads.ts). */
  async getClusterings(keys: string[]): Promise<(StoredClustering | undefined)[]> {
    const tx = this.db.transaction('clusterings', 'readonly');
    const found = await readBySpans(tx.store, keys);
    await tx.done;
    return keys.map((k) => found.get(k));
  }

  async putClusterings(items: StoredClustering[]): Promise<void> {
    if (items.length === 0) return;
    const tx = this.db.transaction('clusterings', 'readwrite');
    for (const item of items) void tx.store.put(item);
    await tx.done;
  }

  async getGrades(keys: string[]): Promise<(StoredGrade | undefined)[]> {
    const tx = this.db.transaction('grades', 'readonly');
    const found = await readBySpans(tx.store, keys);
    await tx.done;
    return keys.map((k) => found.get(k));
  }

  async putGrades(items: StoredGrade[]): Promise<void> {
    if (items.length === 0) return;
    const tx = this.db.transaction('grades', 'readwrite');
    for (const item of items) void tx.store.put(item);
    await tx.done;
  }
}
