/**
 * Monte Carlo questions with a known answer distribution π, for teaching and for checking the
 * theory: the oracle confidence c* = max π is known, so the ECE an estimator should reach (the
 * oracle ECE*) can be computed and compared with Sem1's and Sem2's.
 *
 * Class k of a simulated question is entry k of π, in the order given (never renumbered, like a
 * clusterer's listed order), so ties in the samples resolve towards the first-listed class.
 * Y is the correctness of the modal class of the samples: the answer a deployed system gives.
 */
import { eceEqualWidth } from './ece';
import { classSizes, estimateQuestion, modalClass, type Sem2Options } from './estimators';
import { pairwiseMean } from './pairwise';
import { defaultRng, type Generator } from './rng';
import type { QuestionSamples } from './types';

/** A question to simulate: its answer distribution and which of its classes are correct. */
export interface QuestionSpec {
  /** Class probabilities, non-negative and summing to 1 (within 1e-9). */
  pi: number[];
  /** Indices of the correct classes (usually one; none when the model never answers right). */
  correct: number[];
}

export interface SimulatedQuestion extends QuestionSpec {
  n: number;
  /** Class of each sample, in sampling order. */
  assignments: Int32Array;
  sizes: number[];
  /** Modal class of the samples (lowest index on ties); −1 when n = 0. */
  modal: number;
  /** 1 when the modal class of the samples is correct, else 0. */
  y: number;
  /** Oracle confidence c* = max π. */
  cStar: number;
  /** 1 when the population's modal class (first argmax of π) is correct. */
  yStar: number;
  /** Population top-two margin π(1) − π(2) (1 with one class). */
  piMargin: number;
}

/** Why `spec` cannot be simulated, or null. */
export function checkQuestionSpec(spec: QuestionSpec): string | null {
  const { pi, correct } = spec;
  if (pi.length === 0) return 'π is empty: a question needs at least one class';
  let sum = 0;
  for (let k = 0; k < pi.length; k++) {
    if (!(pi[k] >= 0) || !Number.isFinite(pi[k])) return `π[${k}] = ${pi[k]} is not a probability`;
    sum += pi[k];
  }
  if (Math.abs(sum - 1) > 1e-9) return `π sums to ${sum}, not 1`;
  for (const c of correct) {
    if (!Number.isInteger(c) || c < 0 || c >= pi.length) return `correct class ${c} is not one of the ${pi.length} classes`;
  }
  return null;
}

function argmaxFirst(values: ArrayLike<number>): number {
  let best = 0;
  for (let k = 1; k < values.length; k++) if (values[k] > values[best]) best = k;
  return best;
}

/** Top-two margin of a distribution: largest minus second largest entry (1 with one entry). */
export function topTwoMargin(pi: ArrayLike<number>): number {
  if (pi.length < 2) return 1;
  let first = -Infinity;
  let second = -Infinity;
  for (let k = 0; k < pi.length; k++) {
    if (pi[k] > first) {
      second = first;
      first = pi[k];
    } else if (pi[k] > second) {
      second = pi[k];
    }
  }
  return first - second;
}

/** Draw n samples of one question from `rng` (inverse CDF on `random()`, one draw per sample). */
export function simulateQuestion(spec: QuestionSpec, n: number, rng: Generator): SimulatedQuestion {
  const problem = checkQuestionSpec(spec);
  if (problem !== null) throw new RangeError(problem);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  const K = spec.pi.length;
  const cdf = new Float64Array(K);
  let acc = 0;
  for (let k = 0; k < K; k++) cdf[k] = acc += spec.pi[k];
  // Rounding can leave the cumulative sum a hair below 1; a u above it goes to the last class with mass.
  let lastWithMass = K - 1;
  while (spec.pi[lastWithMass] === 0) lastWithMass--;
  const assignments = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    // The first k with u < cdf[k] always has π[k] > 0, since cdf[k−1] ≤ u < cdf[k].
    const u = rng.random();
    let k = 0;
    while (k < K && !(u < cdf[k])) k++;
    assignments[i] = k < K ? k : lastWithMass;
  }
  const sizes = classSizes(assignments, K);
  const modal = modalClass(sizes);
  const isCorrect = (k: number) => (spec.correct.includes(k) ? 1 : 0);
  return {
    pi: spec.pi,
    correct: spec.correct,
    n,
    assignments,
    sizes,
    modal,
    y: modal < 0 ? 0 : isCorrect(modal),
    cStar: Math.max(...spec.pi),
    yStar: isCorrect(argmaxFirst(spec.pi)),
    piMargin: topTwoMargin(spec.pi),
  };
}

/** Simulate every spec with n samples each, all from one `default_rng(seed)` stream. */
export function simulateQuestions(specs: readonly QuestionSpec[], n: number, seed: number | bigint = 0): SimulatedQuestion[] {
  const rng = defaultRng(seed);
  return specs.map((spec) => simulateQuestion(spec, n, rng));
}

/** The estimators' input for a simulated question. */
export function asQuestionSamples(q: SimulatedQuestion): QuestionSamples {
  return { assignments: q.assignments, nClasses: q.pi.length };
}

/**
 * Oracle ECE* = ECE(c*, a*): the paper's 10-bin ECE of c* = max π against a* = Y(z*), the
 * correctness of the population mode (paper §3), not of the sample mode the deployed Y scores.
 */
export function oracleEce(questions: readonly SimulatedQuestion[], bins = 10): number {
  return eceEqualWidth(questions.map((q) => q.cStar), questions.map((q) => q.yStar), bins);
}

/** What a classroom page shows for a simulated set: each signal's mean and ECE beside the oracle's. */
export interface SimulationSummary {
  questions: number;
  accuracy: number;
  meanCStar: number;
  meanSem1: number;
  meanSem2: number;
  eceStar: number;
  eceSem1: number;
  eceSem2: number;
}

export function summarizeSimulation(questions: readonly SimulatedQuestion[], options?: { bins?: number; sem2?: Sem2Options }): SimulationSummary {
  const bins = options?.bins ?? 10;
  const y = questions.map((q) => q.y);
  const cStar = questions.map((q) => q.cStar);
  const sem1: number[] = [];
  const sem2: number[] = [];
  for (const q of questions) {
    const e = estimateQuestion(asQuestionSamples(q), { sem2: options?.sem2 });
    sem1.push(e.sem1);
    sem2.push(e.sem2);
  }
  return {
    questions: questions.length,
    accuracy: pairwiseMean(y),
    meanCStar: pairwiseMean(cStar),
    meanSem1: pairwiseMean(sem1),
    meanSem2: pairwiseMean(sem2),
    eceStar: oracleEce(questions, bins),
    eceSem1: eceEqualWidth(sem1, y, bins),
    eceSem2: eceEqualWidth(sem2, y, bins),
  };
}
