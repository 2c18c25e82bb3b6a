/**
 * Families of answer distributions π for simulated question sets, with two knobs a classroom
 * page can offer: difficulty (how close the top two answers are) and correctness (calibrated,
 * or a chosen accuracy of the model's favourite answer).
 *
 * Example: 200 hard questions with 20 samples each:
 *   simulateSet({ count: 200, n: 20, difficulty: 'hard', seed: 1 })
 */
import type { Generator } from './rng';
import { defaultRng } from './rng';
import { simulateQuestion, type QuestionSpec, type SimulatedQuestion } from './simulate';

/**
 * π with a chosen top-two margin Δ and top-two mass p: π = ((p+Δ)/2, (p−Δ)/2, rest…), the
 * remaining 1 − p spread evenly over K − 2 classes. Needs p ≥ (2 + (K−2)Δ)/K so that no other
 * class outgrows the runner-up (with K = 2, p is 1).
 */
export function twoLeadingClasses(margin: number, topTwoMass: number, K: number): number[] {
  if (!Number.isInteger(K) || K < 2) throw new RangeError(`twoLeadingClasses: K must be an integer ≥ 2, got ${K}`);
  if (!(margin >= 0 && margin <= 1)) throw new RangeError(`twoLeadingClasses: margin ${margin} is not in [0, 1]`);
  const p = K === 2 ? 1 : topTwoMass;
  const minMass = minTopTwoMass(margin, K);
  if (!(p >= minMass - 1e-12 && p <= 1)) {
    throw new RangeError(`twoLeadingClasses: top-two mass ${p} must be in [${minMass}, 1] for margin ${margin} and K = ${K}`);
  }
  const pi = [(p + margin) / 2, (p - margin) / 2];
  for (let k = 2; k < K; k++) pi.push((1 - p) / (K - 2));
  return pi;
}

/** Smallest top-two mass for which the runner-up still leads the rest. */
export function minTopTwoMass(margin: number, K: number): number {
  return K === 2 ? 1 : (2 + (K - 2) * margin) / K;
}

/** A standard normal draw (Box–Muller on two uniforms; 1 − u keeps the log finite). */
function normal(rng: Generator): number {
  const u1 = 1 - rng.random();
  const u2 = rng.random();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** A Gamma(shape, 1) draw by Marsaglia and Tsang's method (boosted for shape < 1). */
export function gammaDraw(shape: number, rng: Generator): number {
  if (!(shape > 0)) throw new RangeError(`gamma shape must be positive, got ${shape}`);
  if (shape < 1) return gammaDraw(shape + 1, rng) * Math.pow(1 - rng.random(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(rng);
    const v0 = 1 + c * x;
    if (v0 <= 0) continue;
    const v = v0 * v0 * v0;
    const u = 1 - rng.random();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** π ~ Dirichlet(α, …, α) over K classes: small α gives peaked (easy) questions, large α flat ones. */
export function dirichletPi(alpha: number, K: number, rng: Generator): number[] {
  const g = Array.from({ length: K }, () => gammaDraw(alpha, rng));
  const sum = g.reduce((s, x) => s + x, 0);
  const pi = g.map((x) => x / sum);
  // Make the sum exactly 1 within rounding by putting the residue on the largest entry.
  const residue = 1 - pi.reduce((s, x) => s + x, 0);
  const top = pi.indexOf(Math.max(...pi));
  pi[top] += residue;
  return pi;
}

export type Difficulty = 'easy' | 'medium' | 'hard' | 'mixed';

/** Top-two margin ranges of the two-leading family per difficulty. */
export const MARGIN_RANGES: Record<Difficulty, [number, number]> = {
  easy: [0.5, 0.95],
  medium: [0.15, 0.5],
  hard: [0, 0.15],
  mixed: [0, 0.95],
};

/** Dirichlet concentration per difficulty. */
export const DIRICHLET_ALPHA: Record<Difficulty, number> = { easy: 0.2, medium: 1, hard: 5, mixed: 1 };

export interface QuestionSetOptions {
  count: number;
  /** A preset, or an explicit [low, high] range of the top-two margin (two-leading family). */
  difficulty?: Difficulty | [number, number];
  /** Number of classes K (default 4). */
  classes?: number;
  /** 'two-leading' (margin-controlled, default) or 'dirichlet'. */
  family?: 'two-leading' | 'dirichlet';
  /**
   * 'calibrated' (default): the correct class is drawn from π itself, so the population's
   * favourite answer is right with probability c* = max π. { accuracy }: the favourite is right
   * with that probability regardless of π, otherwise another class (drawn uniformly) is.
   */
  correctness?: 'calibrated' | { accuracy: number };
  seed?: number | bigint;
}

function pickFrom(pi: readonly number[], rng: Generator): number {
  const u = rng.random();
  let acc = 0;
  for (let k = 0; k < pi.length; k++) {
    acc += pi[k];
    if (u < acc) return k;
  }
  return pi.length - 1;
}

/** Draw `count` question specs; deterministic for a given seed (default 0). */
export function questionSet(options: QuestionSetOptions, rng: Generator = defaultRng(options.seed ?? 0)): QuestionSpec[] {
  const { count } = options;
  const K = options.classes ?? 4;
  const difficulty = options.difficulty ?? 'mixed';
  const correctness = options.correctness ?? 'calibrated';
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  if (!Number.isInteger(K) || K < 2) throw new RangeError(`classes must be an integer ≥ 2, got ${K}`);
  if (typeof correctness !== 'string' && !(correctness.accuracy >= 0 && correctness.accuracy <= 1)) {
    throw new RangeError(`accuracy must be in [0, 1], got ${correctness.accuracy}`);
  }
  const [lo, hi] = typeof difficulty === 'string' ? MARGIN_RANGES[difficulty] : difficulty;
  if (!(lo >= 0 && hi <= 1 && lo <= hi)) throw new RangeError(`margin range [${lo}, ${hi}] must lie within [0, 1]`);
  const specs: QuestionSpec[] = [];
  for (let q = 0; q < count; q++) {
    let pi: number[];
    if (options.family === 'dirichlet') {
      const alpha = typeof difficulty === 'string' ? DIRICHLET_ALPHA[difficulty] : 1;
      pi = dirichletPi(alpha, K, rng);
    } else {
      const margin = lo + (hi - lo) * rng.random();
      const minMass = minTopTwoMass(margin, K);
      pi = twoLeadingClasses(margin, minMass + (1 - minMass) * rng.random(), K);
    }
    let correct: number;
    if (correctness === 'calibrated') {
      correct = pickFrom(pi, rng);
    } else {
      const favourite = pi.indexOf(Math.max(...pi));
      if (rng.random() < correctness.accuracy) {
        correct = favourite;
      } else {
        const other = Math.floor(rng.random() * (K - 1));
        correct = other >= favourite ? other + 1 : other;
      }
    }
    specs.push({ pi, correct: [correct] });
  }
  return specs;
}

/** A question set with n samples per question, specs and samples from one `default_rng(seed)` stream. */
export function simulateSet(options: QuestionSetOptions & { n: number }): SimulatedQuestion[] {
  const rng = defaultRng(options.seed ?? 0);
  return questionSet(options, rng).map((spec) => simulateQuestion(spec, options.n, rng));
}
