/**
 * A loaded model's identity: a SHA-256 over its config.json and weights, the bytes Transformers.js
 * read. Cached decisions and vectors are keyed by it (model/entailment-cache.ts,
 * model/embedding-cache.ts), because a model id alone does not name one model: another
 * `--model-dir` may hold a different `tiny-nli`, and a hub model may be updated under the same id;
 * either would otherwise silently reuse the old model's decisions.
 *
 * The files are read where the library found them, in its order: the local models folder, then
 * its caches of hub files (the Cache API 'transformers-cache' in a browser, its file cache in
 * Node), then the hub itself when remote models are allowed. Computed once per model load.
 */
import { env, ModelRegistry } from '@huggingface/transformers';
import { sha256Hex } from '../model/hash';
import { hubFileUrl } from '../model/model-hub';
import { applyEnv, lazily, type TransformersSource } from './transformers-env';

/** The Cache API cache Transformers.js keeps hub files in (its `env.cacheKey`). */
export const TRANSFORMERS_CACHE = 'transformers-cache';

async function bytesHex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function fetchBytes(url: string): Promise<Uint8Array | undefined> {
  const response = await fetch(url).catch(() => undefined);
  return response?.ok ? new Uint8Array(await response.arrayBuffer()) : undefined;
}

const join = (...parts: string[]) => parts.map((p, i) => (i === 0 ? p.replace(/\/+$/, '') : p.replace(/^\/+|\/+$/g, ''))).join('/');


/** One of the model's files, from wherever the library found it; undefined when nowhere. */
async function readModelFile(source: TransformersSource, file: string): Promise<Uint8Array | undefined> {
  // Node hands in its file reader; a browser fetches the app's own folder.
  const readPath = source.readFile ?? fetchBytes;
  if (source.localModelPath) {
    const found = await readPath(join(source.localModelPath, source.model, file));
    if (found) return found;
  }
  if (!source.allowRemoteModels) return undefined;
  if (source.readFile && env.cacheDir) {
    const cached = await source.readFile(join(env.cacheDir, source.model, file));
    if (cached) return cached;
  } else if (typeof caches !== 'undefined') {
    const cached = await (await caches.open(TRANSFORMERS_CACHE)).match(hubFileUrl(env.remoteHost, source.model, file));
    if (cached) return new Uint8Array(await cached.arrayBuffer());
  }
  return fetchBytes(hubFileUrl(env.remoteHost, source.model, file));
}

/**
 * The identity of `source`'s model as loaded with `dtype`: 'sha256:' and the hash of each of its
 * model files' (config.json, the weights for that dtype) own hashes. Throws, naming the file, when
 * one cannot be read: a model whose files cannot be identified must not share cached decisions.
 */
export async function modelIdentity(source: TransformersSource, dtype: string): Promise<string> {
  // The library's settings are global: this model's, so its file list is read where it was loaded from.
  applyEnv(source);
  const files = await ModelRegistry.get_model_files(source.model, { dtype: dtype as never });
  const parts: string[] = [];
  for (const file of [...files].sort()) {
    const bytes = await readModelFile(source, file);
    if (!bytes) throw new Error(`cannot read ${file} of "${source.model}" to identify the model`);
    parts.push(`${file} ${await bytesHex(bytes)}`);
  }
  return `sha256:${await sha256Hex(parts.join('\n'))}`;
}

/**
 * A model made on first use (`lazily`) with its identity, read once it has loaded (the identity
 * reads the files the load fetched or cached). The embedding and entailment models share this.
 */
export function lazyIdentifiedModel<T>(source: TransformersSource & { dtype?: string }, load: () => Promise<T>): { ready: () => Promise<T>; identity: () => Promise<string> } {
  const ready = lazily(load);
  const identity = lazily(async () => {
    await ready();
    return modelIdentity(source, source.dtype ?? 'q8');
  });
  return { ready, identity };
}
