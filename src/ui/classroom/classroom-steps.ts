/**
 * Two derived views of the Classroom: convergence as n grows (the same questions, more samples)
 * and one question's held-out splits step by step (the winner's curse, shown).
 */
import { simulateSet } from '../../core/simulate-families';
import { oracleEce, type SimulatedQuestion } from '../../core/simulate';
import { heldOutPermutations, selectionBlockSize, SEM2_REFERENCE, sem1 as sem1Of, sem2HeldOut, sem2Trace, type HeldOutSplit, type Sem2Options } from '../../core/estimators';
import { eceEqualWidth } from '../../core/ece';
import { meanSE, type MeanSE } from '../../core/standard-error';
import { normalizeSettings, sem2Options, setOptions, type ClassroomSettings } from './classroom-model';

/** Sample sizes of the convergence view: doubling, as the paper's n = 5 … 50 sweep but longer. */
export const CONVERGENCE_NS = [4, 8, 16, 32, 64, 128, 256];

export interface ConvergencePoint {
  n: number;
  eceSem1: number;
  eceSem2: number;
  eceStar: number;
  bias1: MeanSE;
  bias2: MeanSE;
}

/**
 * The same question specs (same seed) sampled with n samples each. The specs are drawn before
 * any sample from the one stream, so every n sees the same questions.
 */
export function convergenceAt(input: ClassroomSettings, n: number): ConvergencePoint {
  const s = normalizeSettings({ ...input, n });
  const sim = simulateSet(setOptions(s));
  const options = sem2Options(s.selection);
  const sem1 = sim.map((q) => sem1Of(q.sizes));
  const sem2 = sim.map((q) => sem2HeldOut(q.assignments, q.pi.length, options));
  const y = sim.map((q) => q.y);
  return {
    n,
    eceSem1: eceEqualWidth(sem1, y),
    eceSem2: eceEqualWidth(sem2, y),
    eceStar: oracleEce(sim),
    bias1: meanSE(sem1.map((v, i) => v - sim[i].cStar)),
    bias2: meanSE(sem2.map((v, i) => v - sim[i].cStar)),
  };
}

/** Yields to the event loop between sample sizes so the page stays responsive; stops once `signal` aborts. */
export async function convergenceSweep(
  settings: ClassroomSettings,
  onPoint: (p: ConvergencePoint) => void,
  signal: AbortSignal,
  ns: readonly number[] = CONVERGENCE_NS,
): Promise<void> {
  for (const n of ns) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (signal.aborted) return;
    onPoint(convergenceAt(settings, n));
  }
}

export interface SplitStep extends HeldOutSplit {
  /** Sample indices in the selection block N and the evaluation block E. */
  selection: number[];
  evaluation: number[];
  /** Class counts in N. */
  selectionCounts: number[];
  /** Mean of c_1..c_r so far. */
  runningSem2: number;
}

export interface WinnersCurse {
  question: SimulatedQuestion;
  sem1: number;
  sem2: number;
  steps: SplitStep[];
}

/**
 * The R splits of one question's samples with which samples went where, from the core's own
 * permutations (the same Sem2 the scorer computes): the simulated questions' walk-through and
 * the live classroom's, on a real model's samples, both use it.
 */
export function splitSteps(assignments: ArrayLike<number>, K: number, options: Sem2Options): { sem2: number; steps: SplitStep[] } {
  const { sem2, splits } = sem2Trace(assignments, K, options);
  const n = assignments.length;
  const R = splits.length;
  const perms = heldOutPermutations(n, R, options.seed ?? SEM2_REFERENCE.seed);
  const size = selectionBlockSize(n, options);
  let sum = 0;
  const steps = splits.map((split, r) => {
    const perm = Array.from(perms.subarray(r * n, (r + 1) * n));
    const selection = perm.slice(0, size).sort((a, b) => a - b);
    const evaluation = perm.slice(size).sort((a, b) => a - b);
    const selectionCounts = new Array<number>(K).fill(0);
    for (const i of selection) selectionCounts[assignments[i]]++;
    sum += split.c;
    return { ...split, selection, evaluation, selectionCounts, runningSem2: sum / (r + 1) };
  });
  return { sem2, steps };
}

/** One simulated question's walk-through at the page's selection share. */
export function winnersCurse(question: SimulatedQuestion, selectionShare: number): WinnersCurse {
  const { sem2, steps } = splitSteps(question.assignments, question.pi.length, sem2Options(selectionShare));
  return { question, sem1: sem1Of(question.sizes), sem2, steps };
}

/** The hardest question of a set (smallest population margin): where the curse shows most. */
export function hardestQuestion(questions: readonly SimulatedQuestion[]): number {
  let best = 0;
  for (let i = 1; i < questions.length; i++) if (questions[i].piMargin < questions[best].piMargin) best = i;
  return best;
}

/** Within this many percentage points, an estimate is said to match c* on one question. */
const SAME = 0.005;

/**
 * What the shown question itself says about its estimates against c*, in words: one question's
 * Sem2 can land on either side of c* (it is a noisy estimate), so the caption describes this
 * question, then what holds on average over many (the bias numbers below the chart).
 */
export function curseCaption(c: Pick<WinnersCurse, 'sem1' | 'sem2'> & { question: Pick<SimulatedQuestion, 'cStar'> }): string {
  const p = (v: number) => `${(v * 100).toFixed(1)}%`;
  const where = (v: number) => (Math.abs(v - c.question.cStar) <= SAME ? 'matches' : v > c.question.cStar ? 'lands above' : 'lands below');
  const sem1 = `Here Sem1 = ${p(c.sem1)} ${where(c.sem1)} c* = ${p(c.question.cStar)}`;
  const sem1Why = c.sem1 > c.question.cStar + SAME ? ': the winner of a close race is usually the class that got lucky in these samples, and Sem1 counts that luck too.' : '.';
  const sem2 = ` Sem2 = ${p(c.sem2)} ${where(c.sem2)} it`;
  const sem2Why =
    c.sem2 < c.question.cStar - SAME
      ? ': counting the winner in fresh samples removes the luck, but the selection block sometimes picks a class that is not the favourite, and then a smaller class is scored.'
      : ': on a single question the held-out count still varies with the samples; it is over many questions that Sem2 lands a little below c*, where Sem1 lands above (the mean biases below).';
  return `${sem1}${sem1Why}${sem2}${sem2Why}`;
}
