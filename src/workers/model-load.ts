/**
 * Folds Transformers.js's loading events (initiate / download / progress / done / ready, one
 * file at a time) into the plain ModelLoadProgress a run shows: each file with bytes loaded of
 * total, then the backend chosen. Pure and copy-on-write, so each state can be posted as it is.
 */
import type { ModelProgress } from '../model/progress';
import type { ModelFileProgress, ModelLoadProgress } from '../model/run-spec';

/** Sent by the embedding worker (not Transformers.js) when it goes on to try WebGPU. */
export const WEBGPU_CHECK = 'webgpu-check';
/** Sent by the NLI worker when it goes on to try WebGPU (its decisions, not vectors, are compared). */
export const WEBGPU_CHECK_DECISIONS = 'webgpu-check-decisions';
/** Sent by the generation worker when it goes on to try WebGPU (its next-token probabilities are compared). */
export const WEBGPU_CHECK_GENERATION = 'webgpu-check-generation';

export function startModelLoad(model: string): ModelLoadProgress {
  return { model, status: 'loading', files: [] };
}

function withFile(state: ModelLoadProgress, file: string, change: (f: ModelFileProgress) => ModelFileProgress): ModelLoadProgress {
  const at = state.files.findIndex((f) => f.file === file);
  const current = at >= 0 ? state.files[at] : { file, loaded: 0, total: null, done: false };
  const files = [...state.files];
  if (at >= 0) files[at] = change(current);
  else files.push(change(current));
  return { ...state, files };
}

const bytes = (n: unknown): number | null => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null);

export function applyModelProgress(state: ModelLoadProgress, p: ModelProgress): ModelLoadProgress {
  switch (p.status) {
    case 'initiate':
    case 'download':
      return p.file ? withFile(state, p.file, (f) => f) : state;
    case 'progress':
      if (!p.file) return state;
      return withFile(state, p.file, (f) => ({ ...f, loaded: bytes(p.loaded) ?? f.loaded, total: bytes(p.total) ?? f.total }));
    case 'done':
      // A file read from the browser's cache may report no bytes at all: done is done.
      return p.file ? withFile(state, p.file, (f) => ({ ...f, done: true, loaded: f.total ?? f.loaded, total: f.total ?? f.loaded })) : state;
    case 'ready':
      return { ...state, phase: 'model started', files: state.files.map((f) => (f.done ? f : { ...f, done: true, loaded: f.total ?? f.loaded, total: f.total ?? f.loaded })) };
    case WEBGPU_CHECK:
      return { ...state, phase: 'trying WebGPU (its vectors must agree with WASM)' };
    case WEBGPU_CHECK_DECISIONS:
      return { ...state, phase: 'trying WebGPU (its decisions must agree with WASM)' };
    case WEBGPU_CHECK_GENERATION:
      return { ...state, phase: 'trying WebGPU (its next-token probabilities must agree with WASM)' };
    default:
      // 'progress_total' repeats the per-file figures; anything newer is ignored rather than misread.
      return state;
  }
}

export function modelLoaded(state: ModelLoadProgress, info: { device: 'webgpu' | 'wasm'; note?: string }): ModelLoadProgress {
  const { phase: _done, ...loaded } = applyModelProgress(state, { status: 'ready' });
  return { ...loaded, status: 'ready', device: info.device, ...(info.note ? { note: info.note } : {}) };
}

export function modelFailed(state: ModelLoadProgress, error: string): ModelLoadProgress {
  return { ...state, status: 'failed', error };
}

/** Bytes loaded and known total over every file, for one overall figure. */
export function modelLoadTotals(state: ModelLoadProgress): { loaded: number; total: number | null } {
  let loaded = 0;
  let total: number | null = 0;
  for (const f of state.files) {
    loaded += f.loaded;
    total = total === null || f.total === null ? null : total + f.total;
  }
  return { loaded, total };
}
