import { expect, test } from 'vitest';
import { applyModelProgress, modelFailed, modelLoaded, modelLoadTotals, startModelLoad, WEBGPU_CHECK } from '../../../src/workers/model-load';
import type { ModelProgress } from '../../../src/model/progress';

/** The events Transformers.js sends for a two-file model, in the order it sends them. */
const EVENTS: ModelProgress[] = [
  { status: 'initiate', file: 'config.json' },
  { status: 'initiate', file: 'onnx/model_quantized.onnx' },
  { status: 'progress', file: 'config.json', loaded: 271, total: 271, progress: 100 },
  { status: 'done', file: 'config.json' },
  { status: 'progress_total', progress: 10, loaded: 271, total: 2271 },
  { status: 'progress', file: 'onnx/model_quantized.onnx', loaded: 500, total: 2000, progress: 25 },
];

test('files are listed as they start, with bytes loaded of total; done files are complete', () => {
  const state = EVENTS.reduce(applyModelProgress, startModelLoad('tiny'));
  expect(state).toEqual({
    model: 'tiny',
    status: 'loading',
    files: [
      { file: 'config.json', loaded: 271, total: 271, done: true },
      { file: 'onnx/model_quantized.onnx', loaded: 500, total: 2000, done: false },
    ],
  });
  expect(modelLoadTotals(state)).toEqual({ loaded: 771, total: 2271 });
});

test('a file with no size yet leaves the overall total unknown', () => {
  const state = applyModelProgress(applyModelProgress(startModelLoad('m'), { status: 'initiate', file: 'a' }), { status: 'progress', file: 'b', loaded: 10, total: 20 });
  expect(state.files[0]).toEqual({ file: 'a', loaded: 0, total: null, done: false });
  expect(modelLoadTotals(state)).toEqual({ loaded: 10, total: null });
});

test('a file read from a cache reports done without bytes: its size is what it had', () => {
  const state = applyModelProgress(applyModelProgress(startModelLoad('m'), { status: 'initiate', file: 'a' }), { status: 'done', file: 'a' });
  expect(state.files).toEqual([{ file: 'a', loaded: 0, total: 0, done: true }]);
});

test('ready, the WebGPU check and the backend chosen', () => {
  let state = EVENTS.reduce(applyModelProgress, startModelLoad('tiny'));
  state = applyModelProgress(state, { status: 'ready' });
  expect(state.phase).toBe('model started');
  expect(state.files.every((f) => f.done && f.loaded === f.total)).toBe(true);
  state = applyModelProgress(state, { status: WEBGPU_CHECK });
  expect(state.phase).toMatch(/WebGPU/);
  const loaded = modelLoaded(state, { device: 'wasm', note: 'WebGPU unavailable (no adapter); using WASM' });
  expect(loaded).toMatchObject({ status: 'ready', device: 'wasm', note: 'WebGPU unavailable (no adapter); using WASM' });
  expect(loaded.phase).toBeUndefined();
  // Copy on write: earlier states are untouched (they may be in flight to the page).
  expect(state.status).toBe('loading');
});

test('a failed load keeps what was loaded and says why', () => {
  const state = modelFailed(EVENTS.reduce(applyModelProgress, startModelLoad('tiny')), 'could not load embedding model "tiny": 404');
  expect(state).toMatchObject({ status: 'failed', error: 'could not load embedding model "tiny": 404' });
  expect(state.files).toHaveLength(2);
});

test('events of unknown kinds or without a file change nothing', () => {
  const start = startModelLoad('m');
  expect(applyModelProgress(start, { status: 'something-new', file: 'x' })).toBe(start);
  expect(applyModelProgress(start, { status: 'progress', loaded: 3 })).toBe(start);
});
