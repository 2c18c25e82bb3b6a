/**
 * The model's EmbeddingCache port over IndexedDB: vectors keyed by (model, text),
 * stored as Float32Array (IndexedDB clones typed arrays natively), written in batches.
 */
import type { EmbeddingCache, EmbeddingEntry, EmbeddingKey } from '../model/embedding-cache';
import { BatchWriter } from '../model/write-batcher';
import type { SemeceDatabase } from './db';

export class IdbEmbeddingCache implements EmbeddingCache {
  private readonly writer: BatchWriter<EmbeddingEntry>;

  constructor(private readonly db: SemeceDatabase) {
    this.writer = new BatchWriter(async (items) => {
      const tx = this.db.transaction('embeddings', 'readwrite');
      for (const { model, text, vector } of items) void tx.store.put({ model, text, vector });
      await tx.done;
    });
  }

  async get(keys: EmbeddingKey[]): Promise<(Float32Array | undefined)[]> {
    const tx = this.db.transaction('embeddings', 'readonly');
    const found = await Promise.all(keys.map((k) => tx.store.get([k.model, k.text])));
    await tx.done;
    return found.map((e) => e?.vector);
  }

  put(entries: EmbeddingEntry[]): Promise<void> {
    return this.writer.add(entries);
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}
