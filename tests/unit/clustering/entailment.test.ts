/**
 * The entailment clusterer's rule over a fake decider whose decisions are a table: mutual
 * entailment with each class's first member, first appearance, the non-transitive cases the
 * rule settles, determinism, and the cache (a second clustering asks the model nothing).
 */
import { describe, expect, test } from 'vitest';
import { assignByEntailment, contextualized, createEntailmentClusterer, type EntailmentDecider, type NliPair } from '../../../src/clustering/entailment';
import type { NliLabel } from '../../../src/model/entailment-cache';
import { MemoryEntailmentCache } from '../../mock/memory-entailment-cache';

const Q = 'Who wrote it?';

/** Decisions by answer (the question prefix stripped): "a>b" entails; anything unlisted is neutral. */
function fakeDecider(entails: string[], contradicts: string[] = []): EntailmentDecider & { asked: NliPair[]; calls: number } {
  const strip = (t: string) => t.slice(Q.length + 1);
  const asked: NliPair[] = [];
  const decider = {
    model: 'fake-nli',
    identity: async () => 'sha256:fake',
    asked,
    calls: 0,
    async decide(pairs: NliPair[]): Promise<NliLabel[]> {
      decider.calls++;
      asked.push(...pairs);
      return pairs.map(({ premise, hypothesis }) => {
        const key = `${strip(premise)}>${strip(hypothesis)}`;
        if (strip(premise) === strip(hypothesis) || entails.includes(key)) return 'entailment';
        return contradicts.includes(key) ? 'contradiction' : 'neutral';
      });
    },
  };
  return decider;
}

const both = (a: string, b: string) => [`${a}>${b}`, `${b}>${a}`];

describe('entailment clustering rule', () => {
  test('premise and hypothesis carry the question as context, as the reference implementation does', async () => {
    expect(contextualized(' Who wrote it? ', ' Shakespeare ')).toBe('Who wrote it? Shakespeare');
    expect(contextualized('', 'Shakespeare')).toBe('Shakespeare');
    const decider = fakeDecider(both('A', 'B'));
    await createEntailmentClusterer({ decider }).cluster(Q, ['A', 'B']);
    expect(decider.asked).toEqual([
      { premise: 'Who wrote it? A', hypothesis: 'Who wrote it? B' },
      { premise: 'Who wrote it? B', hypothesis: 'Who wrote it? A' },
    ]);
  });

  test('mutual entailment joins; one-way entailment or contradiction does not; classes by first appearance', async () => {
    const decider = fakeDecider([...both('Shakespeare', 'W. Shakespeare'), 'Shakespeare and Marlowe>Shakespeare'], ['Marlowe>Shakespeare']);
    const r = await createEntailmentClusterer({ decider }).cluster(Q, ['Marlowe', 'Shakespeare', 'Shakespeare and Marlowe', 'W. Shakespeare', 'shakespeare.', 'Marlowe']);
    expect(r).toEqual({
      ok: true,
      value: [
        { label: 'Marlowe', members: [0, 5] },
        // "shakespeare." normalizes like "Shakespeare": merged without asking the model.
        { label: 'Shakespeare', members: [1, 3, 4] },
        { label: 'Shakespeare and Marlowe', members: [2] },
      ],
    });
    expect(decider.asked.some((p) => p.premise.endsWith('shakespeare.') || p.hypothesis.endsWith('shakespeare.'))).toBe(false);
  });

  test('non-transitive decisions: each answer is compared with each class\'s first member only', async () => {
    // A ⇔ B and B ⇔ C, but A and C are apart.
    const chain = [...both('A', 'B'), ...both('B', 'C')];
    const cluster = (answers: string[]) => createEntailmentClusterer({ decider: fakeDecider(chain) }).cluster(Q, answers);
    // C meets A (the first member of B's class), not B: a class of its own.
    expect(await cluster(['A', 'B', 'C'])).toEqual({ ok: true, value: [{ label: 'A', members: [0, 1] }, { label: 'C', members: [2] }] });
    // With B first, B is the first member and both join it: the order of the samples matters.
    expect(await cluster(['B', 'A', 'C'])).toEqual({ ok: true, value: [{ label: 'B', members: [0, 1, 2] }] });
    // B mutually entails the first members of two classes: it joins the earlier one.
    expect(await cluster(['A', 'C', 'B'])).toEqual({ ok: true, value: [{ label: 'A', members: [0, 2] }, { label: 'C', members: [1] }] });
  });

  test('the reverse direction is asked only for classes the forward direction entails', async () => {
    const decisions: NliPair[][] = [];
    const table: Record<string, NliLabel> = { 'x>y': 'neutral', 'x>z': 'entailment', 'y>z': 'entailment', 'z>x': 'neutral', 'z>y': 'entailment' };
    const classOf = await assignByEntailment(['x', 'y', 'z'], async (pairs) => {
      decisions.push(pairs);
      return pairs.map((p) => table[`${p.premise}>${p.hypothesis}`] ?? 'neutral');
    });
    expect(classOf).toEqual([0, 1, 1]);
    expect(decisions).toEqual([
      [{ premise: 'x', hypothesis: 'y' }],
      [{ premise: 'x', hypothesis: 'z' }, { premise: 'y', hypothesis: 'z' }],
      [{ premise: 'z', hypothesis: 'x' }, { premise: 'z', hypothesis: 'y' }],
    ]);
  });

  test('deterministic: the same answers give the same classes and ask the same pairs in the same order', async () => {
    const answers = ['A', 'B', 'C', 'D', 'B', 'E'];
    const rules = [...both('A', 'B'), ...both('B', 'C'), ...both('D', 'E'), 'A>D'];
    const d1 = fakeDecider(rules);
    const d2 = fakeDecider(rules);
    const r1 = await createEntailmentClusterer({ decider: d1 }).cluster(Q, answers);
    const r2 = await createEntailmentClusterer({ decider: d2 }).cluster(Q, answers);
    expect(r1).toEqual(r2);
    expect(d1.asked).toEqual(d2.asked);
    expect(r1).toEqual({ ok: true, value: [{ label: 'B', members: [0, 1, 4] }, { label: 'C', members: [2] }, { label: 'D', members: [3, 5] }] });
  });

  test('the cache: a second clustering of the same answers asks the model nothing', async () => {
    const cache = new MemoryEntailmentCache();
    const decider = fakeDecider(both('A', 'B'));
    let decided = 0;
    const clusterer = createEntailmentClusterer({ decider, cache, onDecided: (n) => (decided += n) });
    const first = await clusterer.cluster(Q, ['A', 'B', 'C']);
    const callsAfterFirst = decider.calls;
    expect(callsAfterFirst).toBeGreaterThan(0);
    expect(decided).toBe(decider.asked.length);
    expect(cache.size).toBe(decider.asked.length);
    const second = await clusterer.cluster(Q, ['A', 'B', 'C']);
    expect(second).toEqual(first);
    expect(decider.calls).toBe(callsAfterFirst);
    // Another model's decisions are not this model's.
    const d = fakeDecider(both('A', 'B'));
    await createEntailmentClusterer({ decider: { model: 'other-nli', identity: d.identity, decide: (p) => d.decide(p) }, cache }).cluster(Q, ['A', 'B']);
    expect(d.calls).toBe(2);
    // Nor are another model's under the same id (other weights: another identity).
    const same = fakeDecider(both('A', 'B'));
    await createEntailmentClusterer({ decider: { ...same, model: 'fake-nli', identity: async () => 'sha256:other', decide: (p) => same.decide(p) }, cache }).cluster(Q, ['A', 'B']);
    expect(same.calls).toBe(2);
  });

  test('one distinct answer asks nothing; failures come back as values', async () => {
    const decider = fakeDecider([]);
    expect(await createEntailmentClusterer({ decider }).cluster(Q, ['Paris', 'paris', 'PARIS!'])).toEqual({ ok: true, value: [{ label: 'Paris', members: [0, 1, 2] }] });
    expect(decider.calls).toBe(0);

    const failing: EntailmentDecider = { model: 'broken', identity: async () => 'x', decide: async () => { throw new Error('model file missing'); } };
    const r = await createEntailmentClusterer({ decider: failing }).cluster(Q, ['A', 'B']);
    expect(r).toEqual({ ok: false, error: { kind: 'entailment', message: 'entailment failed: model file missing', where: 'entailment clusterer (broken)' } });

    const short: EntailmentDecider = { model: 'short', identity: async () => 'x', decide: async () => [] };
    const s = await createEntailmentClusterer({ decider: short }).cluster(Q, ['A', 'B']);
    expect(s.ok ? '' : s.error.message).toContain('returned 0 decisions for 1 pairs');

    const controller = new AbortController();
    controller.abort();
    const a = await createEntailmentClusterer({ decider }).cluster(Q, ['A', 'B'], controller.signal);
    expect(a.ok ? '' : a.error.kind).toBe('aborted');
  });
});

describe('entailment clustering of a multiple-choice question', () => {
  test('answers choosing an option are read as its text: letter and text merge without asking the model', async () => {
    const decider = fakeDecider([]);
    const r = await createEntailmentClusterer({ decider }).cluster(Q, ['B', 'Lyon', '(B) Lyon', 'Paris', 'A'], undefined, { options: ['Paris', 'Lyon', 'Nice'] });
    expect(r).toEqual({ ok: true, value: [{ label: 'B', members: [0, 1, 2] }, { label: 'Paris', members: [3, 4] }] });
    // The model read the options' texts, never the letters.
    expect(decider.asked).toEqual([
      { premise: 'Who wrote it? Lyon', hypothesis: 'Who wrote it? Paris' },
    ]);
  });
});
