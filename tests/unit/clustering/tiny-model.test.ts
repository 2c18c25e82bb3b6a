/**
 * The embedding path end to end in Node: the repo's own tiny ONNX model, loaded through
 * Transformers.js's real loading code (tokenizer.json, config.json, onnx/model_quantized.onnx)
 * with remote models switched off, run by onnxruntime-node.
 */
import { readModelFile } from '../../../cli/model-files';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createTransformersEmbedder, embedTexts, loadFeatureExtractor, TINY_EMBEDDING_MODEL, vectorsAgree, PROBE_TEXTS } from '../../../src/clustering/feature-extraction';
import type { ModelProgress } from '../../../src/model/progress';
import { createEmbeddingClusterer } from '../../../src/clustering/embedding';
import { MemoryEmbeddingCache } from '../../../src/model/embedding-cache';
import { cosineSimilarity } from '../../../src/clustering/agglomerative';

const localModelPath = path.resolve('public/models') + path.sep;
const source = { model: TINY_EMBEDDING_MODEL, localModelPath, allowRemoteModels: false, readFile: readModelFile } as const;

describe('tiny embedding model through Transformers.js (Node)', () => {
  test('loads lazily once, reports progress, gives normalized 32-d vectors with the designed geometry', async () => {
    const progress: ModelProgress[] = [];
    const embedder = createTransformersEmbedder(source, (p) => progress.push(p));
    expect(progress).toEqual([]);
    const [first, second] = await Promise.all([embedder.ready(), embedder.ready()]);
    expect(first).toBe(second);
    expect(progress.some((p) => p.status === 'ready')).toBe(true);
    expect(progress.some((p) => p.file?.includes('model_quantized.onnx'))).toBe(true);

    const [paris, cityOfParis, lyon, two, digit2, large, big] = await embedder.embed(['Paris', 'the city of Paris', 'Lyon', 'two', '2', 'large', 'BIG']);
    expect(paris.length).toBe(32);
    expect(Math.hypot(...paris)).toBeCloseTo(1, 5);
    expect(cosineSimilarity(paris, cityOfParis)).toBeGreaterThan(0.9);
    expect(cosineSimilarity(two, digit2)).toBeGreaterThan(0.9);
    expect(cosineSimilarity(large, big)).toBeGreaterThan(0.9);
    expect(cosineSimilarity(paris, lyon)).toBeLessThan(0.6);
  });

  test('q8 and fp32 files agree (the check used before trusting a second backend)', async () => {
    const q8 = await loadFeatureExtractor({ ...source, dtype: 'q8' });
    const fp32 = await loadFeatureExtractor({ ...source, dtype: 'fp32' });
    const a = await embedTexts(q8, PROBE_TEXTS);
    const b = await embedTexts(fp32, PROBE_TEXTS);
    expect(vectorsAgree(a, b, 0.99).agree).toBe(true);
    const shuffled = [b[1], b[0], ...b.slice(2)];
    expect(vectorsAgree(a, shuffled, 0.99).agree).toBe(false);
  });

  test('embedding clusterer: normalized merge, then threshold; the cache answers repeat texts', async () => {
    const cache = new MemoryEmbeddingCache();
    const clusterer = createEmbeddingClusterer({ embedder: createTransformersEmbedder(source), threshold: 0.85, cache });
    const answers = ['Paris', 'Lyon', 'the city of Paris', 'paris.', 'two', 'Lyon', '2'];
    const r = await clusterer.cluster('q', answers);
    expect(r).toMatchObject({
      ok: true,
      value: [
        { label: 'Paris', members: [0, 2, 3] },
        { label: 'Lyon', members: [1, 5] },
        { label: 'two', members: [4, 6] },
      ],
    });
    // The distinct answers' cosines, kept for the graph signals: groups Paris, Lyon, the city of
    // Paris, two, 2 (in first appearance), cosines clipped to [0, 1] and rounded to 4 decimals.
    expect(r.similarity?.groups).toEqual([0, 1, 2, 0, 3, 1, 4]);
    const m = r.similarity!.matrix;
    expect(m).toHaveLength(25);
    const [paris, lyon, city] = await createTransformersEmbedder(source).embed(['Paris', 'Lyon', 'the city of Paris']);
    expect(m[0 * 5 + 2]).toBe(Math.round(Math.max(0, cosineSimilarity(paris, city)) * 1e4) / 1e4);
    expect(m[2 * 5 + 0]).toBe(m[0 * 5 + 2]);
    expect(m[0 * 5 + 1]).toBe(Math.round(Math.max(0, cosineSimilarity(paris, lyon)) * 1e4) / 1e4);
    expect(m[0]).toBe(1);
    // One vector per distinct normalized answer: Paris, Lyon, the city of Paris, two, 2.
    expect(cache.size).toBe(5);
    const strict = createEmbeddingClusterer({ embedder: createTransformersEmbedder(source), threshold: 0.9999, cache });
    const split = await strict.cluster('q', answers);
    expect(split.ok && split.value.map((c) => c.members)).toEqual([[0, 3], [1, 5], [2], [4], [6]]);
  });

  test('with remote models off, an id that is not local fails with a clear error', async () => {
    const clusterer = createEmbeddingClusterer({ embedder: createTransformersEmbedder({ ...source, model: 'Xenova/all-MiniLM-L6-v2' }) });
    const r = await clusterer.cluster('q', ['Paris', 'Lyon']);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ kind: 'embedding', message: expect.stringMatching(/embedding failed: .+/) });
  });
});
