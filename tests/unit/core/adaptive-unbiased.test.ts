import { expect, test } from 'vitest';
import { adaptiveRule } from '../../../src/core/adaptive-rule';
import { adaptiveModalClass, adaptiveSem2 } from '../../../src/core/adaptive-sem2';
import { sampleAdaptively } from '../../../src/core/adaptive-simulate';
import { defaultRng } from '../../../src/core/rng';

// The design's claim (docs/STATISTICS.md, "Adaptive sampling"): the selection block and the
// held-out size depend on the selection samples only, so adaptive Sem2 is unbiased for π(z).
// Sem1 and any share that counts the selection samples are not, under the same stopping.
const Q = 20_000;

function tally(pi: number[], rule = adaptiveRule(50)) {
  const rng = defaultRng(2027);
  const heldOutError: number[] = [];
  const sameSampleError: number[] = [];
  for (let q = 0; q < Q; q++) {
    const { assignments, selection } = sampleAdaptively({ pi, correct: [0] }, rule, rng);
    const z = adaptiveModalClass(assignments, selection);
    heldOutError.push(adaptiveSem2(assignments, selection) - pi[z]);
    let hits = 0;
    for (const k of assignments) if (k === z) hits++;
    sameSampleError.push(hits / assignments.length - pi[z]);
  }
  const stats = (a: number[]) => {
    const m = a.reduce((s, x) => s + x, 0) / a.length;
    const v = a.reduce((s, x) => s + (x - m) ** 2, 0) / (a.length - 1);
    return { mean: m, se: Math.sqrt(v / a.length) };
  };
  return { heldOut: stats(heldOutError), sameSample: stats(sameSampleError) };
}

test('adaptive Sem2 is unbiased for π(z) under the stopping rule; the same-sample share is not', () => {
  for (const pi of [[0.9, 0.05, 0.05], [0.6, 0.3, 0.1], [0.4, 0.35, 0.25]]) {
    const { heldOut, sameSample } = tally(pi);
    expect(Math.abs(heldOut.mean)).toBeLessThan(4 * heldOut.se);
    // Counting the selection samples too (Sem1-like) is biased upward: z is their mode.
    expect(sameSample.mean).toBeGreaterThan(8 * sameSample.se);
  }
}, 60_000);
