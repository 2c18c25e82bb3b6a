/**
 * Sem2 of an adaptively sampled question (adaptive-rule.ts): ONE split, the selection block
 * (slots 0..selection−1) and the held-out block (the rest). z is the modal class of the selection
 * block (lowest class index on ties, as in the spec); Sem2 is z's share of the held-out block.
 *
 * Not the reference mode's 10 random splits: those would mix selection and held-out slots, and the
 * held-out block's size was chosen from the selection samples, so only this split keeps the
 * held-out share unbiased for π(z) given the selection (docs/STATISTICS.md, "Adaptive sampling").
 *
 * The correctness Y an adaptive question is scored against is z's (the paper's deployed label
 * Y(ẑ_N)): grading the modal class of all the samples instead pairs π(z) with another class's
 * correctness on split questions, which the simulator shows biases Sem2-ECE well above fixed n.
 */

/** z: the modal class of the first `selection` samples (lowest class index on ties); −1 when there are none. */
export function adaptiveModalClass(assignments: ArrayLike<number>, selection: number): number {
  if (!Number.isInteger(selection) || selection < 0) throw new RangeError(`selection must be a non-negative integer, got ${selection}`);
  const s = Math.min(selection, assignments.length);
  const counts = new Map<number, number>();
  for (let i = 0; i < s; i++) counts.set(assignments[i], (counts.get(assignments[i]) ?? 0) + 1);
  let z = -1;
  let best = 0;
  for (const [k, c] of counts) {
    if (c > best || (c === best && k < z)) {
      z = k;
      best = c;
    }
  }
  return z;
}

/**
 * z = the modal class of the first `selection` samples (lowest class index on ties);
 * returns z's share of the remaining samples (0 when there are none).
 */
export function adaptiveSem2(assignments: ArrayLike<number>, selection: number): number {
  const z = adaptiveModalClass(assignments, selection);
  const n = assignments.length;
  const s = Math.min(selection, n);
  if (z < 0 || s === n) return 0;
  let hits = 0;
  for (let i = s; i < n; i++) if (assignments[i] === z) hits++;
  return hits / (n - s);
}
