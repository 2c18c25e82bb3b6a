/**
 * Downloaded model files are kept by the browser: every load turns Transformers.js's Cache API
 * use on where the Cache API exists (a browser or worker), off where it does not (Node).
 */
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { env } from '@huggingface/transformers';
import { loadFeatureExtractor, TINY_EMBEDDING_MODEL } from '../../../src/clustering/feature-extraction';

const source = { model: TINY_EMBEDDING_MODEL, localModelPath: path.resolve('public/models') + path.sep, allowRemoteModels: false } as const;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the browser keeps model files', () => {
  test('with a Cache API, loads go through it (so a model is fetched once, not per run)', async () => {
    const opened: string[] = [];
    const looked: string[] = [];
    vi.stubGlobal('caches', {
      open: async (name: string) => {
        opened.push(name);
        return { match: async (url: string) => void looked.push(url), put: async () => undefined };
      },
    });
    env.useBrowserCache = false;
    const extractor = await loadFeatureExtractor(source);
    await extractor.dispose();
    expect(env.useBrowserCache).toBe(true);
    expect(opened.length).toBeGreaterThan(0);
    expect(looked.some((u) => u.includes('model_quantized.onnx'))).toBe(true);
  });

  test('without one (Node), it is off', async () => {
    env.useBrowserCache = true;
    const extractor = await loadFeatureExtractor(source);
    await extractor.dispose();
    expect(env.useBrowserCache).toBe(false);
  });
});
