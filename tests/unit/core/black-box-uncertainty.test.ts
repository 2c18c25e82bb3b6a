import { describe, expect, it } from 'vitest';
import {
  BLACK_BOX_DIRECTION, BLACK_BOX_SIGNALS, blackBoxConfidence, blackBoxUncertainty,
} from '../../../src/core/black-box-uncertainty';
import { estimateQuestion } from '../../../src/core/estimators';
import { graphUncertainty, sameClassSimilarity } from '../../../src/core/graph-uncertainty';
import { defaultRng } from '../../../src/core/rng';

describe('blackBoxUncertainty: one question, from what the run holds', () => {
  it('labels only: hand-computed for [0, 0, 1, 0] (sizes 3, 1)', () => {
    const v = blackBoxUncertainty({ labels: [0, 0, 1, 0] });
    // H = −(3/4 ln 3/4 + 1/4 ln 1/4); K = 2; Deg = 1 − (9 + 1)/16 = 3/8; Ecc = √1.
    expect(v.semanticEntropy).toBeCloseTo(-(0.75 * Math.log(0.75) + 0.25 * Math.log(0.25)), 15);
    expect(v).toMatchObject({ numSets: 2, eigV: 2, deg: 3 / 8, ecc: 1, graphFrom: 'partition' });
    expect(v.lexicalSimilarity).toBeNaN();
  });
  it('with a similarity matrix, the graph signals come from it; with answers, lexical similarity is filled', () => {
    const w = [1, 0.5, 0.5, 1];
    const v = blackBoxUncertainty({ labels: [0, 1], similarity: w, answers: ['Paris', 'Lyon'] });
    expect(v.graphFrom).toBe('similarity');
    expect({ eigV: v.eigV, deg: v.deg, ecc: v.ecc }).toEqual(graphUncertainty(w, 2));
    expect(v.lexicalSimilarity).toBe(0);
    expect(v.numSets).toBe(2);
  });
  it('semantic entropy is bit-identical to the report\'s entropy; the same-class matrix gives the closed forms', () => {
    const rng = defaultRng(5);
    for (let t = 0; t < 30; t++) {
      const m = 2 + Math.floor(rng.random() * 30);
      const labels = Array.from({ length: m }, () => Math.floor(rng.random() * 5));
      const a = blackBoxUncertainty({ labels });
      expect(a.semanticEntropy).toBe(estimateQuestion({ assignments: labels, nClasses: 5 }).entropy);
      const b = blackBoxUncertainty({ labels, similarity: sameClassSimilarity(labels) });
      for (const k of ['eigV', 'deg', 'ecc'] as const) expect(Math.abs(a[k] - b[k])).toBeLessThan(1e-10);
    }
  });
  it('a matrix or answer list of the wrong size throws', () => {
    expect(() => blackBoxUncertainty({ labels: [0, 1], similarity: [1] })).toThrow(RangeError);
    expect(() => blackBoxUncertainty({ labels: [0, 1], answers: ['x'] })).toThrow(RangeError);
  });
});

describe('directions and confidence forms', () => {
  it('every signal has a direction; only lexical similarity is a confidence', () => {
    expect(BLACK_BOX_SIGNALS.filter((s) => BLACK_BOX_DIRECTION[s] === 'confidence')).toEqual(['lexicalSimilarity']);
  });
  it('on a hard partition with K classes, numSets, eigV and ecc all map to 1/K; deg to Σp²; entropy to exp(−H)', () => {
    const labels = [0, 0, 1, 2, 2, 2];
    const v = blackBoxUncertainty({ labels });
    for (const s of ['numSets', 'eigV', 'ecc'] as const) expect(blackBoxConfidence(s, v[s])).toBeCloseTo(1 / 3, 15);
    expect(blackBoxConfidence('deg', v.deg)).toBeCloseTo((4 + 1 + 9) / 36, 15);
    expect(blackBoxConfidence('semanticEntropy', v.semanticEntropy)).toBeCloseTo(Math.exp(-v.semanticEntropy), 15);
  });
  it('unanimous samples have confidence 1 everywhere', () => {
    const v = blackBoxUncertainty({ labels: [3, 3, 3], answers: ['Paris', 'paris', 'PARIS.'] });
    for (const s of BLACK_BOX_SIGNALS) expect(blackBoxConfidence(s, v[s]), s).toBe(1);
  });
  it('each confidence form decreases as its uncertainty grows; NaN stays NaN', () => {
    for (const s of BLACK_BOX_SIGNALS) {
      const [lo, hi] = s === 'lexicalSimilarity' ? [0.8, 0.2] : s === 'deg' ? [0.1, 0.6] : [1.2, 3];
      expect(blackBoxConfidence(s, lo), s).toBeGreaterThan(blackBoxConfidence(s, hi));
      expect(blackBoxConfidence(s, NaN)).toBeNaN();
    }
  });
});
