/**
 * The likelihood-weighted semantic entropy: a hand-computed vector, and both estimators against
 * the reference fixture (bench/reference/weighted_semantic_entropy_reference.py: LM-Polygraph's
 * own SemanticEntropy code at commit efea882d, and Farquhar et al.'s sum_normalized formula).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { monteCarloSemanticEntropy, weightedSemanticEntropy } from '../../../src/core/weighted-semantic-entropy';

const fixture = JSON.parse(readFileSync('tests/fixtures/uncertainty/weighted-semantic-entropy-reference.json', 'utf8')) as {
  cases: { name: string; labels: number[]; loglik: number[]; lmPolygraph: number; farquhar: number }[];
};

describe('weighted semantic entropy by hand', () => {
  test('classes weighted by their members’ sequence probabilities, not their counts', () => {
    // Sequence probabilities ½, ¼ in class 0 and ¼ in class 1: p = (¾, ¼), H = −(¾ ln ¾ + ¼ ln ¼),
    // where the discrete (count) entropy of the same partition would be −(⅔ ln ⅔ + ⅓ ln ⅓).
    const ll = [Math.log(0.5), Math.log(0.25), Math.log(0.25)];
    expect(weightedSemanticEntropy([0, 0, 1], ll)).toBeCloseTo(-(0.75 * Math.log(0.75) + 0.25 * Math.log(0.25)), 15);
    // LM-Polygraph's estimator: −(1/3)(ln ¾ + ln ¾ + ln ¼).
    expect(monteCarloSemanticEntropy([0, 0, 1], ll)).toBeCloseTo(-(2 * Math.log(0.75) + Math.log(0.25)) / 3, 15);
    // Normalisation: shifting every log-probability by a constant changes nothing (Farquhar), the class sums (LM-Polygraph) by that constant.
    const shifted = ll.map((x) => x - 500);
    expect(weightedSemanticEntropy([0, 0, 1], shifted)).toBeCloseTo(weightedSemanticEntropy([0, 0, 1], ll), 12);
    expect(monteCarloSemanticEntropy([0, 0, 1], shifted)).toBeCloseTo(monteCarloSemanticEntropy([0, 0, 1], ll) + 500, 9);
  });

  test('one class is 0; equal probabilities give the count entropy; unusable input is NaN', () => {
    expect(weightedSemanticEntropy([2, 2, 2], [-1, -5, -0.1])).toBe(0);
    expect(weightedSemanticEntropy([0, 1, 1, 2], [-3, -3, -3, -3])).toBeCloseTo(-(0.5 * Math.log(0.5) + 2 * 0.25 * Math.log(0.25)), 15);
    expect(weightedSemanticEntropy([0, 1], [-1])).toBeNaN();
    expect(weightedSemanticEntropy([0, 1], [-1, NaN])).toBeNaN();
    expect(weightedSemanticEntropy([], [])).toBeNaN();
  });
});

describe('against the reference implementations', () => {
  test.each(fixture.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const scale = (x: number) => Math.max(1, Math.abs(x));
    expect(Math.abs(weightedSemanticEntropy(c.labels, c.loglik) - c.farquhar)).toBeLessThan(1e-12 * scale(c.farquhar));
    expect(Math.abs(monteCarloSemanticEntropy(c.labels, c.loglik) - c.lmPolygraph)).toBeLessThan(1e-12 * scale(c.lmPolygraph));
  });
});
