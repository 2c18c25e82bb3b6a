import { describe, expect, test } from 'vitest';
import { adjustedRandIndex, clusteringAgreement, pairConfusion, randIndex, summarizeAgreement } from '../../../src/clustering/agreement';

describe('agreement between clusterings', () => {
  // Hand-computed: contingency [[2,1,0],[0,1,2]]; pairs together in both = 2; in a = 6; in b = 3;
  // of 15 pairs. RI = (2 + 8)/15; ARI = (2 − 6·3/15)/((6+3)/2 − 6·3/15) = 0.8/3.3.
  const a = [0, 0, 0, 1, 1, 1];
  const b = [0, 0, 1, 1, 2, 2];

  test('pair confusion, Rand and adjusted Rand on a hand-computed example', () => {
    expect(pairConfusion(a, b)).toEqual({ tp: 2, fp: 1, fn: 4, tn: 8 });
    expect(randIndex(a, b)).toBeCloseTo(10 / 15, 15);
    expect(adjustedRandIndex(a, b)).toBeCloseTo(0.8 / 3.3, 15);
    expect(adjustedRandIndex(b, a)).toBeCloseTo(0.8 / 3.3, 15);
  });

  test('label names do not matter; identical partitions score 1', () => {
    expect(adjustedRandIndex([0, 0, 1, 2], [5, 5, 3, 9])).toBe(1);
    expect(randIndex([0, 0, 1, 2], [5, 5, 3, 9])).toBe(1);
  });

  test('degenerate cases follow scikit-learn: all-in-one vs all-in-one is 1, vs singletons is 0', () => {
    expect(adjustedRandIndex([0, 0, 0], [1, 1, 1])).toBe(1);
    expect(adjustedRandIndex([0, 1, 2], [0, 1, 2])).toBe(1);
    expect(adjustedRandIndex([0, 0, 0, 0], [0, 1, 2, 3])).toBe(0);
    expect(randIndex([0], [0])).toBe(1);
  });

  test('a worse-than-chance pairing is negative', () => {
    expect(adjustedRandIndex([0, 0, 1, 1], [0, 1, 0, 1])).toBeCloseTo(-0.5, 15);
  });

  test('modal class comparison: majority overlap both ways', () => {
    const judge = [0, 0, 0, 0, 1, 1, 2];
    const emb = [0, 0, 0, 1, 1, 1, 1];
    // modal(judge) = {0,1,2,3}; modal(emb) = class 1 = {3,4,5,6}; overlap {3}
    const r = clusteringAgreement(judge, emb);
    expect(r.sameModalClass).toBe(false);
    expect(r.modalJaccard).toBeCloseTo(1 / 7, 15);
    const close = clusteringAgreement([0, 0, 0, 0, 1], [0, 0, 0, 1, 1]);
    expect(close.sameModalClass).toBe(true);
    expect(close.modalIdentical).toBe(false);
    expect(clusteringAgreement([1, 1, 0], [0, 0, 1]).modalIdentical).toBe(true);
  });

  test('summary: means over questions, NaN when empty', () => {
    const s = summarizeAgreement([clusteringAgreement(a, [1, 1, 0, 0, 0, 0]), clusteringAgreement(a, a)]);
    expect(s.questions).toBe(2);
    // a vs [1,1,0,0,0,0]: pairs together in both 1+3 = 4, in a 6, in b 7 → RI = (4 + 15−6−7+4)/15 = 10/15
    expect(s.meanRandIndex).toBeCloseTo((10 / 15 + 1) / 2, 15);
    expect(s.sameModalShare).toBe(0.5);
    expect(Number.isNaN(summarizeAgreement([]).meanRandIndex)).toBe(true);
  });
});

describe('agreement of two clustered runs, by question', () => {
  test('joined on id; failed, missing and mismatched questions are listed with a reason', async () => {
    const { agreementByQuestion } = await import('../../../src/clustering/agreement-rows');
    const judge = [
      { id: 'q1', n_clusters: 2, cluster_assignments: [0, 0, 0, 1, 1, 1] },
      { id: 'q2', n_clusters: 1, cluster_assignments: [0, 0] },
      { id: 'q3', n_clusters: 0, cluster_assignments: [], error: 'indices missing: 1' },
      { id: 'q4', n_clusters: 1, cluster_assignments: [0, 0, 0] },
      { id: 'q5', n_clusters: 1, cluster_assignments: [0] },
    ];
    const embedding = [
      { id: 'q2', n_clusters: 1, cluster_assignments: [0, 0] },
      { id: 'q1', n_clusters: 3, cluster_assignments: [0, 0, 1, 1, 2, 2] },
      { id: 'q3', n_clusters: 1, cluster_assignments: [0, 0] },
      { id: 'q4', n_clusters: 1, cluster_assignments: [0, 0] },
      { id: 'q6', n_clusters: 1, cluster_assignments: [0] },
    ];
    const r = agreementByQuestion(judge, embedding);
    expect(r.questions.map((q) => q.id)).toEqual(['q1', 'q2']);
    expect(r.questions[0].adjustedRandIndex).toBeCloseTo(0.8 / 3.3, 15);
    expect(r.questions[1]).toMatchObject({ randIndex: 1, adjustedRandIndex: 1, sameModalClass: true });
    expect(r.skipped).toEqual([
      { id: 'q3', reason: 'clustering failed in the first clustering' },
      { id: 'q4', reason: 'different numbers of samples (3 vs 2)' },
      { id: 'q5', reason: 'not in the second clustering' },
      { id: 'q6', reason: 'not in the first clustering' },
    ]);
    expect(r.summary.questions).toBe(2);
    expect(r.summary.sameModalShare).toBe(1);
  });
});
