import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classSizes, estimateQuestion, semanticEntropy } from '../../../src/core/estimators';
import { numSets, numSetsFromNli, partitionClassSizes, partitionSemanticEntropy } from '../../../src/core/semantic-sets';
import { defaultRng } from '../../../src/core/rng';

interface Fixture {
  nli: { name: string; m: number; entail: number[]; contra: number[]; numSets: number }[];
  partitions: { labels: number[]; semanticEntropy: number }[];
}
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/uncertainty/graph-reference.json', import.meta.url), 'utf8')) as Fixture;

describe('partition class sizes and NumSets', () => {
  it('sizes of the non-empty classes in ascending label order; NumSets counts them', () => {
    expect(partitionClassSizes([2, 0, 2, 2, 5])).toEqual([1, 3, 1]);
    expect(numSets([2, 0, 2, 2, 5])).toBe(3);
    expect(numSets([7, 7, 7])).toBe(1);
    expect(numSets([])).toBe(0);
  });
  it('a sparse labelling (one huge label) is counted without a huge array', () => {
    expect(partitionClassSizes([1e9, 0, 1e9])).toEqual([1, 2]);
  });
  it('a label that is not a non-negative integer throws, naming the sample', () => {
    expect(() => numSets([0, 1, -1])).toThrow(/sample 2/);
    expect(() => numSets([0, NaN])).toThrow(RangeError);
  });
});

describe('discrete semantic entropy is the report\'s entropy (estimators.ts semanticEntropy)', () => {
  it('hand-computed: [0, 0, 1, 1] → ln 2; [0, 0, 1] → ln 3 − (2/3) ln 2; one class → 0; none → NaN', () => {
    expect(partitionSemanticEntropy([0, 0, 1, 1])).toBeCloseTo(Math.log(2), 15);
    // −(2/3) ln(2/3) − (1/3) ln(1/3) = ln 3 − (2/3) ln 2
    expect(partitionSemanticEntropy([0, 0, 1])).toBeCloseTo(Math.log(3) - (2 / 3) * Math.log(2), 15);
    expect(partitionSemanticEntropy([4, 4, 4])).toBe(0);
    expect(partitionSemanticEntropy([])).toBeNaN();
  });
  it('bit-identical to estimateQuestion().entropy on random partitions (the same function, same order)', () => {
    const rng = defaultRng(11);
    for (let t = 0; t < 100; t++) {
      const m = 1 + Math.floor(rng.random() * 50);
      const k = 1 + Math.floor(rng.random() * 10);
      const labels = Array.from({ length: m }, () => Math.floor(rng.random() * k));
      const e = estimateQuestion({ assignments: labels, nClasses: k });
      expect(partitionSemanticEntropy(labels)).toBe(e.entropy);
      expect(semanticEntropy(classSizes(labels, k))).toBe(e.entropy);
      expect(numSets(labels)).toBe(e.nonEmptyClasses);
    }
  });
  it('equals LM-Polygraph\'s SemanticEntropyEmpirical (class frequencies, mean estimator) on the fixture, to 1e-9', () => {
    for (const c of fixture.partitions) expect(Math.abs(partitionSemanticEntropy(c.labels) - c.semanticEntropy)).toBeLessThanOrEqual(1e-9);
  });
});

describe('NumSets from the NLI matrices (LM-Polygraph NumSemSets)', () => {
  it('hand-computed: a link needs entail > contra both ways; links chain into components', () => {
    // 3 samples. 0 ⇔ 1 linked (0.9 > 0.1 both ways); 1 → 2 only one way (0.8 > 0.1 but 0.2 < 0.7): not linked.
    const entail = [1, 0.9, 0.1, 0.9, 1, 0.8, 0.1, 0.2, 1];
    const contra = [0, 0.1, 0.5, 0.1, 0, 0.1, 0.5, 0.7, 0];
    expect(numSetsFromNli(entail, contra, 3)).toBe(2);
    // Make 1 ⇔ 2 linked too: 0 and 2 are not linked to each other, yet one component.
    const entail2 = [...entail];
    entail2[7] = 0.8;
    expect(numSetsFromNli(entail2, contra, 3)).toBe(1);
    // Ties do not link (strict >).
    expect(numSetsFromNli([1, 0.5, 0.5, 1], [0, 0.5, 0.5, 0], 2)).toBe(2);
    expect(numSetsFromNli([], [], 0)).toBe(0);
    expect(() => numSetsFromNli([1], [0, 0], 1)).toThrow(RangeError);
  });
  it('equals LM-Polygraph\'s NumSemSets on the fixture', () => {
    for (const c of fixture.nli) expect(numSetsFromNli(c.entail, c.contra, c.m), c.name).toBe(c.numSets);
  });
});
