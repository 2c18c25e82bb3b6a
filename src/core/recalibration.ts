/**
 * Cross-fitted recalibration: how calibrated a score could be made by a map fitted on other
 * questions, without the map seeing the outcomes it is judged on.
 *
 * 1. Split: the questions are split in two halves by `default_rng(seed).permutation(N)`, the
 *    first ⌊N/2⌋ forming half A and the rest half B (abstention.ts's heldOutSplit, so a seed
 *    names the same split everywhere in the app).
 * 2. Fit a map (isotonic.ts or platt.ts) on A's scores and outcomes and apply it to B's scores;
 *    fit another on B and apply it to A. Every question thus gets a recalibrated confidence from a
 *    map that never saw its outcome.
 * 3. The caller measures calibration on those confidences (e.g. eceInference). The interval there
 *    is conditional on the confidences; here they depend on the other half's outcomes, which that
 *    interval takes as fixed, so it describes calibration given the fitted maps, not the variation
 *    of the maps themselves. The split is one draw: repeat over seeds to see its spread.
 *
 * Input: a confidence-like score (larger = more confident; negate an uncertainty first) and
 * correctness Y ∈ {0, 1} (RangeError otherwise). Any non-finite score, or fewer than 2 questions
 * (a half would be empty), gives NaN confidences.
 */
import { heldOutSplit } from './abstention';
import { fitIsotonic, predictIsotonic, type IsotonicMap } from './isotonic';
import { fitPlatt, predictPlatt, type PlattFit } from './platt';

export type RecalibrationMethod = 'isotonic' | 'platt';

export type RecalibrationMap = { method: 'isotonic'; isotonic: IsotonicMap } | { method: 'platt'; platt: PlattFit };

export interface CrossFittedRecalibration {
  method: RecalibrationMethod;
  seed: number;
  /** Each question's recalibrated confidence, from the map fitted on the other half. */
  confidence: Float64Array;
  /** Row indices of halves A and B (permutation order). */
  halves: [Int32Array, Int32Array];
  /** The map fitted on A (applied to B) and the one fitted on B (applied to A); null when not fitted. */
  maps: [RecalibrationMap, RecalibrationMap] | null;
}

/** Fits the method's map on the given rows. */
export function fitRecalibration(method: RecalibrationMethod, score: ArrayLike<number>, y: ArrayLike<number>, rows: ArrayLike<number>): RecalibrationMap {
  return method === 'isotonic'
    ? { method, isotonic: fitIsotonic(score, y, rows) }
    : { method, platt: fitPlatt(score, y, rows) };
}

/** A fitted map at score s. */
export function applyRecalibration(map: RecalibrationMap, s: number): number {
  return map.method === 'isotonic' ? predictIsotonic(map.isotonic, s) : predictPlatt(map.platt, s);
}

/** Steps 1–2 over the first min(score.length, y.length) questions. */
export function crossFittedRecalibration(
  score: ArrayLike<number>,
  y: ArrayLike<number>,
  options: { method: RecalibrationMethod; seed: number },
): CrossFittedRecalibration {
  const { method, seed } = options;
  const n = Math.min(score.length, y.length);
  for (let i = 0; i < n; i++) {
    if (y[i] !== 0 && y[i] !== 1) throw new RangeError(`correctness must be 0 or 1, got ${y[i]} at row ${i}`);
  }
  const split = heldOutSplit(n, seed);
  const halves: [Int32Array, Int32Array] = [split.selection, split.evaluation];
  const confidence = new Float64Array(n).fill(NaN);
  let finite = true;
  for (let i = 0; i < n; i++) if (!Number.isFinite(score[i])) finite = false;
  if (!finite || halves[0].length === 0 || halves[1].length === 0) return { method, seed, confidence, halves, maps: null };
  const maps: [RecalibrationMap, RecalibrationMap] = [
    fitRecalibration(method, score, y, halves[0]),
    fitRecalibration(method, score, y, halves[1]),
  ];
  for (let h = 0; h < 2; h++) {
    const map = maps[h];
    for (const i of halves[1 - h]) confidence[i] = applyRecalibration(map, score[i]);
  }
  return { method, seed, confidence, halves, maps };
}
