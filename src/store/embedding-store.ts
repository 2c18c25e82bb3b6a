/**
 * The model's EmbeddingCache port over IndexedDB: vectors keyed by (model and its identity, text),
 * stored as Float32Array (IndexedDB clones typed arrays natively), written in batches. The store's
 * key stays [model, text], its model field holding the model id and identity together: a vector
 * stored before identities (its model field the id alone) is never found, so it is a miss.
 */
import { identifiedModel, type EmbeddingCache, type EmbeddingEntry, type EmbeddingKey } from '../model/embedding-cache';
import { BatchWriter } from '../model/write-batcher';
import type { SemeceDatabase } from './db';

export class IdbEmbeddingCache implements EmbeddingCache {
  private readonly writer: BatchWriter<EmbeddingEntry>;

  constructor(private readonly db: SemeceDatabase) {
    this.writer = new BatchWriter(async (items) => {
      const tx = this.db.transaction('embeddings', 'readwrite');
      for (const e of items) void tx.store.put({ model: identifiedModel(e), text: e.text, vector: e.vector });
      await tx.done;
    });
  }

  async get(keys: EmbeddingKey[]): Promise<(Float32Array | undefined)[]> {
    const tx = this.db.transaction('embeddings', 'readonly');
    const found = await Promise.all(keys.map((k) => tx.store.get([identifiedModel(k), k.text])));
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
