/**
 * Embeddings cached by (model, its identity, text): the identity (a hash of the model's config and
 * weights, transformers/model-identity.ts) keeps apart two models under one id. The store backs this interface with IndexedDB; the
 * in-memory version serves Node (CLI, tests, benchmarks) and a page without storage.
 */
export interface EmbeddingKey {
  model: string;
  identity: string;
  text: string;
}

export interface EmbeddingEntry extends EmbeddingKey {
  vector: Float32Array;
}

export interface EmbeddingCache {
  /** One slot per key, in order; undefined where nothing is cached. */
  get(keys: EmbeddingKey[]): Promise<(Float32Array | undefined)[]>;
  put(entries: EmbeddingEntry[]): Promise<void>;
}

/** The model and its identity as one string: NUL cannot occur in a model id. */
export function identifiedModel(key: Pick<EmbeddingKey, 'model' | 'identity'>): string {
  return `${key.model}\u0000${key.identity}`;
}

/** A stable string key; the NUL separator cannot occur in a model id. */
export function embeddingKeyString(key: EmbeddingKey): string {
  return `${identifiedModel(key)}\u0000${key.text}`;
}

export class MemoryEmbeddingCache implements EmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();

  async get(keys: EmbeddingKey[]): Promise<(Float32Array | undefined)[]> {
    return keys.map((k) => this.vectors.get(embeddingKeyString(k)));
  }

  async put(entries: EmbeddingEntry[]): Promise<void> {
    for (const e of entries) this.vectors.set(embeddingKeyString(e), e.vector);
  }

  get size(): number {
    return this.vectors.size;
  }
}
