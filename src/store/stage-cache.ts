/**
 * Caches of the stages after sampling: clusterings and computed grades, each keyed by a hash of
 * that stage's inputs and settings (see pipeline/runner-keys.ts), so a changed clusterer misses
 * the clustering and grading caches and nothing upstream.
 */
import type { SemeceDatabase } from './db';
import type { StoredClustering, StoredGrade } from './schema';
import { readBySpans } from './span-reads';

export class StageCache {
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
