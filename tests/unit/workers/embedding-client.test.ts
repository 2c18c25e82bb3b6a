import { describe, expect, test } from 'vitest';
import { DEFAULT_EMBEDDING_MODEL, TINY_EMBEDDING_MODEL } from '../../../src/clustering/embedding-models';
import { modelSources } from '../../../src/workers/embedding-client';

describe('where the embedding worker looks for a model', () => {
  test('a shipped model: the app’s folder only, never the hub, whatever the download setting', () => {
    expect(modelSources(TINY_EMBEDDING_MODEL, { allowRemoteModels: true })).toEqual({ allowRemote: false, useLocal: true });
    expect(modelSources(TINY_EMBEDDING_MODEL, {})).toEqual({ allowRemote: false, useLocal: true });
  });

  test('a hub model: the hub when downloads are allowed, else the app’s folder (where it is missing)', () => {
    expect(modelSources(DEFAULT_EMBEDDING_MODEL, { allowRemoteModels: true })).toEqual({ allowRemote: true, useLocal: false });
    expect(modelSources(DEFAULT_EMBEDDING_MODEL, { allowRemoteModels: false })).toEqual({ allowRemote: false, useLocal: true });
  });
});
