/**
 * The embedding clusterer, independent of where vectors come from (a module worker in the
 * browser, onnxruntime-node in the CLI): answers identical after `normalizeAnswer` merge first,
 * one vector per distinct normalized answer (cached by model, its identity and text), then average-linkage
 * agglomerative clustering on cosine similarity. Classes are listed by first appearance.
 */
import type { AnswerSimilarity, SemanticClass } from '../model/rows';
import { agglomerativeAverage, DEFAULT_SIMILARITY_THRESHOLD } from './agglomerative';
import type { EmbeddingCache } from '../model/embedding-cache';
import { normalizeAnswer } from './normalize';
import { HUB_UNREACHABLE } from '../model/model-hub';
import { isHubUnreachable } from '../model/model-load-error';
import type { ClusterOutcome, Clusterer } from './clusterer';
import { errorMessage } from '../model/app-error';

/** Text → vector, for one model. Implemented by the worker client and by the Node embedder. */
export interface Embedder {
  readonly model: string;
  /** Which model this is beyond its id (transformers/model-identity.ts), once loaded; part of every cached vector's key. */
  identity(signal?: AbortSignal): Promise<string>;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface EmbeddingClustererOptions {
  embedder: Embedder;
  /** Cosine similarity at or above which two classes merge (default 0.85). */
  threshold?: number;
  cache?: EmbeddingCache;
}

/** Distinct normalized answers in order of first appearance, with the samples of each. */
export function mergeNormalized(answers: string[]): { text: string; samples: number[] }[] {
  const byKey = new Map<string, { text: string; samples: number[] }>();
  const groups: { text: string; samples: number[] }[] = [];
  answers.forEach((a, i) => {
    const key = normalizeAnswer(a);
    let g = byKey.get(key);
    if (!g) {
      // The first raw text stands for the group: it is what gets embedded.
      g = { text: a.trim(), samples: [] };
      byKey.set(key, g);
      groups.push(g);
    }
    g.samples.push(i);
  });
  return groups;
}

/** The most frequent raw answer of a class (trimmed), earliest on ties. */
export function classLabel(answers: string[], members: number[]): string {
  const counts = new Map<string, number>();
  let best = '';
  let bestCount = 0;
  for (const i of members) {
    const t = answers[i].trim();
    const c = (counts.get(t) ?? 0) + 1;
    counts.set(t, c);
    if (c > bestCount) {
      best = t;
      bestCount = c;
    }
  }
  return best;
}

/** Pure: classes from the normalized groups and one vector per group. */
export function classesFromGroupVectors(
  answers: string[],
  groups: { samples: number[] }[],
  vectors: ArrayLike<number>[],
  threshold: number,
): SemanticClass[] {
  const merged = agglomerativeAverage(vectors, threshold, groups.map((g) => g.samples.length));
  return merged.map((groupIdx) => {
    const members = groupIdx.flatMap((g) => groups[g].samples).sort((a, b) => a - b);
    return { label: classLabel(answers, members), members };
  });
}

async function vectorsFor(texts: string[], embedder: Embedder, cache: EmbeddingCache | undefined, signal?: AbortSignal) {
  const identity = cache ? await embedder.identity(signal) : '';
  const keys = texts.map((text) => ({ model: embedder.model, identity, text }));
  const cached = cache ? await cache.get(keys) : texts.map(() => undefined);
  const missing = texts.filter((_, i) => cached[i] === undefined);
  const fresh = missing.length > 0 ? await embedder.embed(missing, signal) : [];
  if (fresh.length !== missing.length) throw new Error(`the embedder returned ${fresh.length} vectors for ${missing.length} texts`);
  if (cache && fresh.length > 0) await cache.put(missing.map((text, i) => ({ model: embedder.model, identity, text, vector: fresh[i] })));
  let next = 0;
  return cached.map((v) => v ?? fresh[next++]);
}

export function createEmbeddingClusterer(options: EmbeddingClustererOptions): Clusterer {
  const threshold = options.threshold ?? DEFAULT_SIMILARITY_THRESHOLD;
  return {
    method: 'embedding',
    identity: (signal) => options.embedder.identity(signal),
    async cluster(_question, answers, signal): Promise<ClusterOutcome> {
      const where = `embedding clusterer (${options.embedder.model})`;
      if (signal?.aborted) return { ok: false, error: { kind: 'aborted', message: 'clustering was cancelled', where } };
      const groups = mergeNormalized(answers);
      try {
        // Nothing to compare when every answer normalizes alike: skip the model entirely.
        const vectors = groups.length > 1 ? await vectorsFor(groups.map((g) => g.text), options.embedder, options.cache, signal) : [[1]];
        return { ok: true, value: classesFromGroupVectors(answers, groups, vectors, threshold), similarity: groupSimilarity(answers.length, groups, vectors) };
      } catch (err) {
        if (signal?.aborted) return { ok: false, error: { kind: 'aborted', message: 'clustering was cancelled', where } };
        // Said as it is: the stage stops on it rather than failing every question alike.
        if (isHubUnreachable(err)) return { ok: false, error: { kind: HUB_UNREACHABLE, message: (err as Error).message, where } };
        return { ok: false, error: { kind: 'embedding', message: `embedding failed: ${errorMessage(err)}`, where } };
      }
    },
  };
}

/**
 * The answers' similarity as the graph signals read it (model/rows.ts AnswerSimilarity): each
 * sample's group and the groups' cosines, clipped to [0, 1] (a graph's weights are not negative)
 * and rounded to 4 decimals (the row stays small; the signals are computed from what is stored).
 * A group with itself is 1.
 */
export function groupSimilarity(n: number, groups: { samples: number[] }[], vectors: ArrayLike<number>[]): AnswerSimilarity {
  const of = new Array<number>(n).fill(0);
  groups.forEach((g, a) => {
    for (const i of g.samples) of[i] = a;
  });
  const g = groups.length;
  const norms = vectors.map((v) => Math.sqrt(dot(v, v)));
  const matrix = new Array<number>(g * g);
  for (let a = 0; a < g; a++) {
    matrix[a * g + a] = 1;
    for (let b = a + 1; b < g; b++) {
      const cos = norms[a] > 0 && norms[b] > 0 ? dot(vectors[a], vectors[b]) / (norms[a] * norms[b]) : 0;
      matrix[a * g + b] = matrix[b * g + a] = Math.round(Math.min(1, Math.max(0, cos)) * 1e4) / 1e4;
    }
  }
  return { source: 'embedding-cosine', groups: of, matrix };
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
