import { describe, expect, test } from 'vitest';
import { DEFAULT_NLI_MODEL, TINY_NLI_MODEL } from '../../../src/clustering/nli-models';
import { nliModelSources } from '../../../src/workers/nli-client';
import { applyModelProgress, startModelLoad, WEBGPU_CHECK_DECISIONS } from '../../../src/workers/model-load';

describe('where the NLI worker looks for a model', () => {
  test('a shipped model: the app’s folder only, never the hub, whatever the download setting', () => {
    expect(nliModelSources(TINY_NLI_MODEL, { allowRemoteModels: true })).toEqual({ allowRemote: false, useLocal: true });
    expect(nliModelSources(TINY_NLI_MODEL, { allowRemoteModels: false })).toEqual({ allowRemote: false, useLocal: true });
  });

  test('a hub model: the hub when downloads are allowed, else the app’s folder (where it is missing)', () => {
    expect(nliModelSources(DEFAULT_NLI_MODEL, { allowRemoteModels: true })).toEqual({ allowRemote: true, useLocal: false });
    expect(nliModelSources(DEFAULT_NLI_MODEL, { allowRemoteModels: false })).toEqual({ allowRemote: false, useLocal: true });
  });

  test('the WebGPU check of an NLI model is shown as a comparison of decisions', () => {
    const state = applyModelProgress({ ...startModelLoad(TINY_NLI_MODEL), role: 'nli' }, { status: WEBGPU_CHECK_DECISIONS });
    expect(state).toMatchObject({ role: 'nli', phase: 'trying WebGPU (its decisions must agree with WASM)' });
  });
});
