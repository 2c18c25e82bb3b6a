import { describe, expect, it } from 'vitest';
import { lcsLength, rougeL, rougeTokenize } from '../../../src/core/rouge-l';

describe("rouge_score's default tokenizer", () => {
  it('lowercases, turns every run outside [a-z0-9] into a separator, drops empty tokens', () => {
    expect(rougeTokenize("U.S.A. won't!")).toEqual(['u', 's', 'a', 'won', 't']);
    expect(rougeTokenize('42 vs 42.0')).toEqual(['42', 'vs', '42', '0']);
    expect(rougeTokenize('  \t\n ')).toEqual([]);
    expect(rougeTokenize('')).toEqual([]);
  });
  it('non-ASCII letters are separators after lowercasing (as in rouge_score): "Café au lait" → caf au lait', () => {
    expect(rougeTokenize('Café au lait')).toEqual(['caf', 'au', 'lait']);
    expect(rougeTokenize('ÀB')).toEqual(['b']);
  });
  it('a stemmer, when given, applies only to tokens longer than 3 characters', () => {
    const stripS = (t: string): string => t.replace(/s$/, '');
    expect(rougeTokenize('Cats its bus', stripS)).toEqual(['cat', 'its', 'bus']);
  });
});

describe('ROUGE-L (LCS) precision, recall, F', () => {
  it('LCS lengths', () => {
    expect(lcsLength(['a', 'b', 'c', 'd'], ['a', 'c'])).toBe(2);
    expect(lcsLength(['a', 'b'], ['b', 'a'])).toBe(1);
    expect(lcsLength([], ['a'])).toBe(0);
  });
  it("rouge_score's docstring example: LCS 5 (the quick brown jumps the), P = 5/8, R = 5/9, F = 10/17", () => {
    const s = rougeL('The quick brown fox jumps over the lazy dog', 'The quick brown dog jumps on the log.');
    expect(s.precision).toBe(5 / 8);
    expect(s.recall).toBe(5 / 9);
    expect(s.fmeasure).toBeCloseTo(10 / 17, 15);
  });
  it('precision is over the prediction, recall over the target; F is symmetric', () => {
    // target a b c d, prediction a c: LCS 2, P = 2/2, R = 2/4, F = 2·1·0.5/1.5 = 2/3
    const s = rougeL('a b c d', 'a c');
    expect(s).toEqual({ precision: 1, recall: 0.5, fmeasure: 2 / 3 });
    expect(rougeL('a c', 'a b c d').fmeasure).toBe(s.fmeasure);
  });
  it('every value is 0 when either side has no tokens, even two empty texts', () => {
    expect(rougeL('', 'x')).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(rougeL('...', '!!')).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });
  it('identical token sequences score 1 whatever the case and punctuation', () => {
    expect(rougeL('Paris, France.', 'paris france').fmeasure).toBe(1);
  });
});
