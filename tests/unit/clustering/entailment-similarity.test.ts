/**
 * The entailment clusterer's similarity setting (Lin, Trivedi & Sun 2023: W_ij = (P(i ⇒ j) + P(j ⇒ i)) / 2):
 * the matrix from hand-given probabilities, the clusterer's bookkeeping over a deterministic fake
 * scorer (every ordered pair asked once, the classes those of the labels, the row's compact form),
 * the setting through the registry and the CLI's flag, and the repository's tiny NLI model end to
 * end, its probabilities computed by hand from its known logits.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readModelFile } from '../../../cli/model-files';
import { allOrderedPairs, entailmentSimilarity } from '../../../src/clustering/entailment-similarity';
import { createEntailmentClusterer, type EntailmentDecider, type NliPair, type NliScore } from '../../../src/clustering/entailment';
import { createTransformersDecider, scorePairs, loadPairClassifier, TINY_NLI_MODEL } from '../../../src/clustering/text-pair-classification';
import { clustererCacheIdentity, clusteringFromFlags, createClusterer } from '../../../src/clustering/clusterer-registry';
import { clusteringDetail, clusteringSpecSchemaOf } from '../../../src/model/clustering-methods';
import { MemoryEntailmentCache } from '../../mock/memory-entailment-cache';

const Q = 'Who wrote it?';
const strip = (t: string) => t.slice(Q.length + 1);

/** Probabilities by answer pair "a>b" (unlisted: 0.1); a label is entailment at ≥ 0.5, else neutral. */
function fakeScorer(p: Record<string, number>): EntailmentDecider & { scored: NliPair[]; decided: number } {
  const d = {
    model: 'fake-nli',
    identity: async () => 'sha256:fake',
    scored: [] as NliPair[],
    decided: 0,
    async decide(): Promise<never> {
      d.decided++;
      throw new Error('decide is not asked when the similarity is on');
    },
    async score(pairs: NliPair[]): Promise<NliScore[]> {
      d.scored.push(...pairs);
      return pairs.map(({ premise, hypothesis }) => {
        const e = p[`${strip(premise)}>${strip(hypothesis)}`] ?? 0.1;
        return { label: e >= 0.5 ? 'entailment' : 'neutral', entailment: e };
      });
    },
  };
  return d;
}

describe('entailment similarity matrix', () => {
  test('every ordered pair of distinct texts, row by row', () => {
    expect(allOrderedPairs(['a', 'b', 'c']).map((x) => `${x.premise}>${x.hypothesis}`)).toEqual(['a>b', 'a>c', 'b>a', 'b>c', 'c>a', 'c>b']);
    expect(allOrderedPairs(['a'])).toEqual([]);
  });

  test('hand values: the mean of both directions, 4 decimals, 1 on the diagonal, a group per sample', () => {
    // Groups: a = samples 0, 3; b = sample 1; c = sample 2. Pairs a>b a>c b>a b>c c>a c>b.
    const s = entailmentSimilarity(4, [{ samples: [0, 3] }, { samples: [1] }, { samples: [2] }], [0.9, 0.2, 0.7, 0.05, 0.4, 0.123456]);
    expect(s.source).toBe('entailment-probability');
    expect(s.groups).toEqual([0, 1, 2, 0]);
    // ab = (0.9 + 0.7)/2 = 0.8; ac = (0.2 + 0.4)/2 = 0.3; bc = (0.05 + 0.123456)/2 = 0.086728 → 0.0867
    expect(s.matrix).toEqual([1, 0.8, 0.3, 0.8, 1, 0.0867, 0.3, 0.0867, 1]);
    expect(entailmentSimilarity(2, [{ samples: [0, 1] }], []).matrix).toEqual([1]);
    expect(() => entailmentSimilarity(2, [{ samples: [0] }, { samples: [1] }], [0.5])).toThrow(/1 entailment probabilities for 2 answers \(2 ordered pairs\)/);
    expect(() => entailmentSimilarity(2, [{ samples: [0] }, { samples: [1] }], [0.5, Number.NaN])).toThrow(/no entailment probability/);
  });
});

describe('the entailment clusterer with its similarity setting', () => {
  test('scores each ordered pair of distinct answers once, builds the classes from those labels, records the similarity', async () => {
    const d = fakeScorer({ 'Marlowe>Christopher Marlowe': 0.9, 'Christopher Marlowe>Marlowe': 0.8, 'Marlowe>Bacon': 0.3, 'Bacon>Marlowe': 0.1 });
    let pairs = 0;
    const cache = new MemoryEntailmentCache();
    const c = createEntailmentClusterer({ decider: d, cache, similarity: true, onDecided: (n) => (pairs += n) });
    const answers = ['Marlowe', 'Bacon', 'marlowe', 'Christopher Marlowe'];
    const r = await c.cluster(Q, answers);
    expect(r).toEqual({
      ok: true,
      value: [
        { label: 'Marlowe', members: [0, 2, 3] },
        { label: 'Bacon', members: [1] },
      ],
      // Groups Marlowe (0, 2), Bacon (1), Christopher Marlowe (3): MB (0.3+0.1)/2, MC (0.9+0.8)/2, BC 0.1.
      similarity: { source: 'entailment-probability', groups: [0, 1, 0, 2], matrix: [1, 0.2, 0.85, 0.2, 1, 0.1, 0.85, 0.1, 1] },
    });
    // 3 distinct answers: 6 ordered pairs, each once; the label-only path and the decision cache are not used.
    expect(d.scored.map((p) => `${strip(p.premise)}>${strip(p.hypothesis)}`).sort()).toEqual(
      ['Bacon>Christopher Marlowe', 'Bacon>Marlowe', 'Christopher Marlowe>Bacon', 'Christopher Marlowe>Marlowe', 'Marlowe>Bacon', 'Marlowe>Christopher Marlowe'],
    );
    expect(pairs).toBe(6);
    expect(d.decided).toBe(0);
    expect(cache.size).toBe(0);
  });

  test('one distinct answer: nothing asked, the 1×1 similarity', async () => {
    const d = fakeScorer({});
    const r = await createEntailmentClusterer({ decider: d, similarity: true }).cluster(Q, ['Bacon', 'bacon']);
    expect(r).toEqual({ ok: true, value: [{ label: 'Bacon', members: [0, 1] }], similarity: { source: 'entailment-probability', groups: [0, 0], matrix: [1] } });
    expect(d.scored).toEqual([]);
  });

  test('without the setting nothing changes: no similarity, labels from decide', async () => {
    const d = { model: 'fake-nli', identity: async () => 'x', decide: async (pairs: NliPair[]) => pairs.map(() => 'neutral' as const) };
    const r = await createEntailmentClusterer({ decider: d }).cluster(Q, ['A', 'B']);
    expect(r.ok && 'similarity' in r).toBe(false);
  });

  test('a decider that gives no probabilities fails the question, saying so', async () => {
    const d: EntailmentDecider = { model: 'labels-only', identity: async () => 'x', decide: async (pairs) => pairs.map(() => 'neutral') };
    const r = await createEntailmentClusterer({ decider: d, similarity: true }).cluster(Q, ['A', 'B']);
    expect(r).toMatchObject({ ok: false, error: { kind: 'entailment', message: 'entailment failed: the NLI model labels-only gives no entailment probabilities here' } });
  });
});

describe('the setting in the methods table, the registry and the CLI', () => {
  const base = { method: 'entailment' as const, model: TINY_NLI_MODEL, allowRemote: false };
  test('opt-in: the cache key and the detail change only when it is on; a stored spec with it reads back', () => {
    expect(clustererCacheIdentity(base)).toEqual({ method: 'entailment', model: TINY_NLI_MODEL, rule: 1 });
    expect(clustererCacheIdentity({ ...base, similarity: 'entailment' })).toEqual({ method: 'entailment', model: TINY_NLI_MODEL, rule: 1, similarity: 'entailment' });
    expect(clusteringDetail(base)).not.toMatch(/similarity/);
    expect(clusteringDetail({ ...base, similarity: 'entailment' })).toMatch(/answer similarity from the entailment probabilities of every pair/);
    const schema = clusteringSpecSchemaOf();
    expect(schema.safeParse({ ...base, similarity: 'entailment' }).success).toBe(true);
    expect(schema.safeParse({ ...base, similarity: 'cosine' }).success).toBe(false);
  });

  test('--similarity entailment sets it; another value is refused naming the flag', () => {
    const judge = () => {
      throw new Error('no judge');
    };
    expect(clusteringFromFlags('entailment', { similarity: 'entailment' }, judge)).toMatchObject({ method: 'entailment', similarity: 'entailment' });
    expect('similarity' in clusteringFromFlags('entailment', {}, judge)).toBe(false);
    expect(() => clusteringFromFlags('entailment', { similarity: 'cosine' }, judge)).toThrow('--similarity must be entailment, got "cosine"');
  });

  test('the registry hands the setting to the clusterer', async () => {
    const d = fakeScorer({});
    const c = createClusterer({ ...base, similarity: 'entailment' }, { decider: () => d });
    const r = await c.cluster(Q, ['A', 'B']);
    expect(r.ok && r.similarity?.matrix).toEqual([1, 0.1, 0.1, 1]);
  });
});

describe('the tiny NLI model (Transformers.js in Node)', () => {
  const source = { model: TINY_NLI_MODEL, localModelPath: path.resolve('public/models') + path.sep, allowRemoteModels: false, readFile: readModelFile } as const;
  // Its labels are contradiction, neutral, entailment; its logits for these pairs are [-1, 0.5, -2]
  // and [-1, 0.5, 2] (text-pair-classification.test.ts): the entailment class's softmax by hand.
  const forward = Math.exp(-2) / (Math.exp(-1) + Math.exp(0.5) + Math.exp(-2));
  const backward = Math.exp(2) / (Math.exp(-1) + Math.exp(0.5) + Math.exp(2));

  test('scorePairs: the top label and the entailment probability of each pair', async () => {
    const classifier = await loadPairClassifier(source);
    const [f, b] = await scorePairs(classifier, TINY_NLI_MODEL, [{ premise: 'Paris', hypothesis: 'Paris 1900' }, { premise: 'Paris 1900', hypothesis: 'Paris' }]);
    expect(f.label).toBe('neutral');
    expect(f.entailment).toBeCloseTo(forward, 6);
    expect(b.label).toBe('entailment');
    expect(b.entailment).toBeCloseTo(backward, 6);
  });

  test('clustering with the setting: the classes the labels give and the mean of the two directions', async () => {
    const c = createEntailmentClusterer({ decider: createTransformersDecider(source), similarity: true });
    const r = await c.cluster('', ['Paris', 'Paris 1900', 'Paris']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual([{ label: 'Paris', members: [0, 2] }, { label: 'Paris 1900', members: [1] }]);
    const m = Math.round(((forward + backward) / 2) * 1e4) / 1e4;
    expect(r.similarity).toEqual({ source: 'entailment-probability', groups: [0, 1, 0], matrix: [1, m, m, 1] });
  });
});
