import { describe, expect, test } from 'vitest';
import { canStratify, drawSubset, stratumQuotas } from '../../../../src/formats/datasets/subset';
import { describeSubset } from '../../../../src/formats/datasets/subset-description';
import type { Dataset, Question } from '../../../../src/model/rows';

const questions = (n: number, category?: (i: number) => string | undefined): Question[] =>
  Array.from({ length: n }, (_, i) => ({ id: `q${i}`, question: `Q${i}?`, answer: `a${i}`, ...(category?.(i) ? { category: category(i) } : {}) }));
const dataset = (qs: Question[]): Dataset => ({ name: 'test', source: 'test.csv', questions: qs });

describe('drawSubset', () => {
  test("the plain draw is the first N of numpy's default_rng(seed).permutation(total), asked in file order", () => {
    // np.random.default_rng(7).permutation(12) = [4, 6, 10, 0, 1, 3, 8, 7, 2, 5, 9, 11]
    const drawn = drawSubset(dataset(questions(12)), { n: 5, seed: 7, stratify: false });
    expect(drawn.questions.map((q) => q.id)).toEqual(['q0', 'q1', 'q4', 'q6', 'q10']);
    expect(drawn.subset).toEqual({ of: 12, seed: 7, ids: ['q0', 'q1', 'q4', 'q6', 'q10'] });
    // np.random.default_rng(2024).permutation(30)[:5] = [27, 15, 9, 0, 2]
    expect(drawSubset(dataset(questions(30)), { n: 5, seed: 2024, stratify: false }).subset!.ids).toEqual(['q0', 'q2', 'q9', 'q15', 'q27']);
  });

  test('the same seed gives the same questions; another seed others', () => {
    const ds = dataset(questions(200));
    const a = drawSubset(ds, { n: 20, seed: 1, stratify: false }).subset!.ids;
    expect(drawSubset(ds, { n: 20, seed: 1, stratify: false }).subset!.ids).toEqual(a);
    expect(drawSubset(ds, { n: 20, seed: 2, stratify: false }).subset!.ids).not.toEqual(a);
  });

  test('stratified: each category gets its proportional share, by largest remainder', () => {
    // 60 A, 30 B, 10 C; n = 15 → exact 9, 4.5, 1.5 → 9 + 5 + 1 (the tie at .5 goes to B, seen first).
    const cat = (i: number) => (i < 60 ? 'A' : i < 90 ? 'B' : 'C');
    const drawn = drawSubset(dataset(questions(100, cat)), { n: 15, seed: 3, stratify: true });
    const counts: Record<string, number> = {};
    for (const q of drawn.questions) counts[q.category!] = (counts[q.category!] ?? 0) + 1;
    expect(counts).toEqual({ A: 9, B: 5, C: 1 });
    expect(drawn.subset!.stratifiedBy).toBe('category');
    expect(drawn.questions).toHaveLength(15);
  });

  test('equal remainders tie exactly, so the stratum seen first wins (integer arithmetic, not float)', () => {
    // 100, 400, 100 of 600; n = 4 → exact 2/3, 8/3, 2/3: every remainder is 2/3 (400 of 600 as
    // integers). In floating point 4·400/600 − 2 reads 0.6666666666666665 < 0.6666666666666666,
    // which handed the second extra question to C ({1, 2, 1}); the rule gives it to B.
    const q = stratumQuotas(new Map([['A', 100], ['B', 400], ['C', 100]]), 4);
    expect([...q.entries()]).toEqual([['A', 1], ['B', 3], ['C', 0]]);
    expect((4 * 400) / 600 - 2).toBeLessThan((4 * 100) / 600);
  });

  test('quotas always sum to n and never exceed a stratum', () => {
    for (const n of [1, 2, 7, 33, 99]) {
      const sizes = new Map([['x', 50], ['y', 1], ['z', 48], ['w', 1]]);
      const q = stratumQuotas(sizes, n);
      expect([...q.values()].reduce((s, v) => s + v, 0)).toBe(n);
      for (const [k, v] of q) expect(v).toBeLessThanOrEqual(sizes.get(k)!);
    }
  });

  test('no stratifying without two categories; questions without one form their own stratum', () => {
    expect(canStratify(questions(10))).toBe(false);
    expect(canStratify(questions(10, () => 'same'))).toBe(false);
    expect(canStratify(questions(10, (i) => (i < 5 ? 'some' : undefined)))).toBe(true);
    const plain = drawSubset(dataset(questions(10)), { n: 3, seed: 1, stratify: true });
    expect(plain.subset!.stratifiedBy).toBeUndefined();
  });

  test('asking for as many as there are (or more) keeps the dataset as it is', () => {
    const ds = dataset(questions(5));
    expect(drawSubset(ds, { n: 5, seed: 1, stratify: false })).toBe(ds);
    expect(drawSubset(ds, { n: 50, seed: 1, stratify: true })).toBe(ds);
  });

  test('the subset reads as one line', () => {
    expect(describeSubset({ of: 4326, seed: 7, stratifiedBy: 'category', ids: ['a', 'b'] })).toBe('2 of 4,326 questions, drawn with seed 7, in proportion to each category');
  });
});
