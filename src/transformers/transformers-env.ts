/**
 * What every Transformers.js model load shares (the embedder, the NLI classifier, and any other
 * model the app runs through the library): its settings, its progress events as plain data, its
 * load options, and a load made once on first use.
 *
 * Transformers.js keeps its settings in one global `env`, so every load sets all of them
 * explicitly (whether the hub may be asked, where local models live, where ONNX Runtime's WASM
 * files are served from) rather than trusting what an earlier load of another model left there.
 */
import { env, type ProgressInfo } from '@huggingface/transformers';
import type { ModelProgress } from '../model/progress';
import { DEFAULT_MODEL_HUB } from '../model/model-hub';

/** Where a model's files come from. */
export interface TransformersSource {
  model: string;
  /** Ask the Hugging Face hub for files not found locally (default false: tests never do). */
  allowRemoteModels?: boolean;
  /** Folder or same-origin path that holds `<model id>/config.json` …; null: do not look locally. */
  localModelPath?: string | null;
  /** ONNX Runtime WASM files, served by the app itself (browser only). */
  wasmPaths?: string | { wasm: string; mjs?: string };
  /** Where hub files come from (default the Hugging Face hub; a mirror, or a loopback hub in tests). */
  remoteHost?: string;
  /**
   * Reads a file by its path (Node: the CLI's cli/model-files.ts), for the model's identity
   * (model-identity.ts); without it, a browser's fetch and Cache API are used.
   */
  readFile?: (path: string) => Promise<Uint8Array | undefined>;
}

export function applyEnv(source: TransformersSource): void {
  env.allowRemoteModels = source.allowRemoteModels ?? false;
  env.allowLocalModels = source.localModelPath !== null;
  env.remoteHost = source.remoteHost ?? DEFAULT_MODEL_HUB;
  // Downloaded files stay in the browser's Cache API ('transformers-cache'), so a model is fetched
  // once, not per run. Node has no Cache API (the CLI uses Transformers.js's file cache instead).
  env.useBrowserCache = typeof caches !== 'undefined';
  if (source.localModelPath) env.localModelPath = source.localModelPath;
  const wasm = env.backends.onnx?.wasm;
  if (source.wasmPaths && wasm) wasm.wasmPaths = source.wasmPaths;
}

/** A loading event as plain data (it crosses the worker boundary): only the fields it has. */
export function toProgress(p: ProgressInfo): ModelProgress {
  const out: ModelProgress = { status: p.status };
  if ('file' in p) out.file = p.file;
  if ('progress' in p) out.progress = p.progress;
  if ('loaded' in p) out.loaded = p.loaded;
  if ('total' in p) out.total = p.total;
  return out;
}

/** A pipeline's or from_pretrained's options: the weights' dtype, the device when one is asked for, progress when followed. */
export function loadOptions<D extends string, V extends string>(dtype: D, device: V | undefined, onProgress?: (p: ModelProgress) => void): { dtype: D; device?: V; progress_callback?: (p: ProgressInfo) => void } {
  return {
    dtype,
    ...(device ? { device } : {}),
    ...(onProgress ? { progress_callback: (p: ProgressInfo) => onProgress(toProgress(p)) } : {}),
  };
}

/**
 * `load` made on first call and shared: concurrent first calls share one promise; a failed load
 * is forgotten so a later call can try again (e.g. after the user allows remote models).
 */
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((err) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}
