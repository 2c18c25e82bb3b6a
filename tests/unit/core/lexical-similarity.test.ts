import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { graphUncertainty } from '../../../src/core/graph-uncertainty';
import { jaccardSimilarity, lexicalSimilarity } from '../../../src/core/lexical-similarity';
import { rougeL } from '../../../src/core/rouge-l';

interface GraphValues { eigV: number; deg: number; ecc: number }
interface Fixture { jaccard: { texts: string[]; similarity: number[]; graph: GraphValues }[] }
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/uncertainty/graph-reference.json', import.meta.url), 'utf8')) as Fixture;

describe('lexical similarity: mean ROUGE-L F over the pairs i < j', () => {
  it('hand-computed: ["Paris", "paris.", "Lyon"] → (1 + 0 + 0)/3', () => {
    expect(lexicalSimilarity(['Paris', 'paris.', 'Lyon'])).toBeCloseTo(1 / 3, 15);
  });
  it('hand-computed: ["a b c", "a c", "b"] → (4/5 + 1/2 + 0)/3 = 13/30', () => {
    // (0,1): LCS 2, P = 2/2, R = 2/3, F = 4/5. (0,2): LCS 1, P = 1, R = 1/3, F = 1/2. (1,2): 0.
    expect(lexicalSimilarity(['a b c', 'a c', 'b'])).toBeCloseTo(13 / 30, 15);
  });
  it('no i = j pairs: two identical answers give 1, not a mean diluted by the diagonal', () => {
    expect(lexicalSimilarity(['yes', 'Yes!'])).toBe(1);
  });
  it('empty answers score 0 against anything, themselves included', () => {
    expect(lexicalSimilarity(['', ''])).toBe(0);
  });
  it('fewer than two answers: NaN (np.mean of no pairs)', () => {
    expect(lexicalSimilarity(['only'])).toBeNaN();
    expect(lexicalSimilarity([])).toBeNaN();
  });
  it('a stemmer is passed through (LM-Polygraph stems with NLTK Porter): cats/cat match only with one', () => {
    expect(lexicalSimilarity(['cats', 'cat'])).toBe(0);
    expect(lexicalSimilarity(['cats', 'cat'], { stem: (t) => t.replace(/s$/, '') })).toBe(1);
  });
});

describe("LM-Polygraph's Jaccard similarity matrix", () => {
  it('hand-computed: word sets after lowercasing, punctuation kept, diagonal 1, empty pair 0', () => {
    expect([...jaccardSimilarity(['a b', 'B c'])]).toEqual([1, 1 / 3, 1 / 3, 1]);
    expect([...jaccardSimilarity(['Paris.', 'paris'])]).toEqual([1, 0, 0, 1]);
    expect([...jaccardSimilarity(['', ''])]).toEqual([1, 0, 0, 1]);
    expect([...jaccardSimilarity(['a a b', 'a b b'])]).toEqual([1, 1, 1, 1]);
  });
  it("splits on Python's whitespace (\\x1c-\\x1f yes, \\ufeff no)", () => {
    expect(jaccardSimilarity(['a\x1cb', 'a'])[1]).toBe(0.5);
    expect(jaccardSimilarity(['a\ufeffb', 'a'])[1]).toBe(0);
  });
  it('equals LM-Polygraph on the fixture, and so do EigV, Deg, Ecc with similarity_score="Jaccard_score" (1e-9)', () => {
    for (const c of fixture.jaccard) {
      const w = jaccardSimilarity(c.texts);
      expect([...w]).toEqual(c.similarity);
      const g = graphUncertainty(w, c.texts.length);
      for (const k of ['eigV', 'deg', 'ecc'] as const) expect(Math.abs(g[k] - c.graph[k]), `${c.texts[0]} ${k}`).toBeLessThanOrEqual(1e-9);
    }
  });
});

describe('lexical similarity scores repeated answers once, with the same mean', () => {
  it('equals the plain mean over every pair i < j on answers with many repeats', () => {
    const pool = ['Paris', 'paris!', 'It is Paris', 'Lyon', '', 'the city of Paris, France', 'Marseille'];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let t = 0; t < 20; t++) {
      const answers = Array.from({ length: 2 + Math.floor(next() * 30) }, () => pool[Math.floor(next() * pool.length)]);
      let sum = 0;
      let pairs = 0;
      for (let i = 0; i < answers.length; i++) {
        for (let j = i + 1; j < answers.length; j++) {
          sum += rougeL(answers[i], answers[j]).fmeasure;
          pairs++;
        }
      }
      expect(Math.abs(lexicalSimilarity(answers) - sum / pairs)).toBeLessThan(1e-14);
    }
  });
});
