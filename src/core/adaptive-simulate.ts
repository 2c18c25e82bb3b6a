/**
 * Simulated runs for adaptive sampling: each question sampled by the stopping rule
 * (adaptive-rule.ts, through planAdaptive itself, so the simulation is the rule a run uses), or
 * with a fixed n, and scored as the pipeline scores it. For the bench (bench/adaptive.bench.ts),
 * the budget planner (budget-plan.ts) and their tests.
 *
 * Scoring: Y is the correctness of the selection block's modal class z for an adaptive question
 * (the default; 'all' grades the modal class of every sample, as fixed-n rows are graded, for
 * comparison), of the modal class of all samples for a fixed-n one (lowest index on ties);
 * Sem1 = the modal share over all samples drawn (on a variable n for an adaptive question);
 * Sem2 = adaptiveSem2 over the one selection/held-out split for an adaptive question, the
 * reference mode's 10 splits for a fixed-n one.
 */
import { planAdaptive, type AdaptiveRule } from './adaptive-rule';
import { adaptiveModalClass, adaptiveSem2 } from './adaptive-sem2';
import { classSizes, modalClass, sem1, sem2HeldOut } from './estimators';
import type { Generator } from './rng';
import { simulateQuestion, type QuestionSpec } from './simulate';

/** One scored question of a simulated run. */
export interface ScoredQuestion {
  sem1: number;
  sem2: number;
  y: number;
  /** Samples drawn. */
  n: number;
  /** Size of the selection block (adaptive), or undefined for a fixed-n question. */
  selection?: number;
}

/** Columns of a simulated run, ready for the ECE functions. */
export interface ScoredRun {
  sem1: number[];
  sem2: number[];
  y: number[];
  n: number[];
}

function draw(spec: QuestionSpec, k: number, rng: Generator): Int32Array {
  return simulateQuestion(spec, k, rng).assignments;
}

/**
 * Whose correctness Y is: 'all' = the modal class of every sample drawn (what the pipeline grades),
 * 'selection' = the selection block's modal class z (the paper's deployed label Y(ẑ_N), the class
 * adaptive Sem2 is the held-out share of). Fixed-n questions always use 'all'.
 */
export type LabelOf = 'all' | 'selection';

function correctness(spec: QuestionSpec, assignments: Int32Array, selection: number | undefined, label: LabelOf): { sizes: number[]; y: number } {
  const sizes = classSizes(assignments, spec.pi.length);
  const modal = selection !== undefined && label === 'selection' ? adaptiveModalClass(assignments, selection) : modalClass(sizes);
  return { sizes, y: modal >= 0 && spec.correct.includes(modal) ? 1 : 0 };
}

/** The class of each sample of one question sampled by the rule, in slot order, and its plan's selection. */
export function sampleAdaptively(spec: QuestionSpec, rule: AdaptiveRule, rng: Generator): { assignments: Int32Array; selection: number } {
  let assignments = new Int32Array(0);
  for (;;) {
    const keys = Array.from(assignments, String);
    const plan = planAdaptive(keys, rule);
    if (plan.next.phase === 'done') return { assignments, selection: plan.selection };
    const more = draw(spec, plan.next.draw, rng);
    const joined = new Int32Array(assignments.length + more.length);
    joined.set(assignments);
    joined.set(more, assignments.length);
    assignments = joined;
  }
}

/** Score one question from its samples: adaptive when `selection` is given, else reference Sem2. */
export function scoreQuestion(spec: QuestionSpec, assignments: Int32Array, selection?: number, label: LabelOf = 'selection'): ScoredQuestion {
  const { sizes, y } = correctness(spec, assignments, selection, label);
  const s2 = selection === undefined ? sem2HeldOut(assignments, spec.pi.length) : adaptiveSem2(assignments, selection);
  return { sem1: sem1(sizes), sem2: s2, y, n: assignments.length, selection };
}

function columns(rows: readonly ScoredQuestion[]): ScoredRun {
  return { sem1: rows.map((r) => r.sem1), sem2: rows.map((r) => r.sem2), y: rows.map((r) => r.y), n: rows.map((r) => r.n) };
}

/** Every question sampled by the rule, from one stream. */
export function simulateAdaptiveRun(specs: readonly QuestionSpec[], rule: AdaptiveRule, rng: Generator, label: LabelOf = 'selection'): ScoredRun {
  return columns(
    specs.map((spec) => {
      const { assignments, selection } = sampleAdaptively(spec, rule, rng);
      return scoreQuestion(spec, assignments, selection, label);
    }),
  );
}

/** Every question with n samples, reference Sem2, from one stream. */
export function simulateFixedRun(specs: readonly QuestionSpec[], n: number, rng: Generator): ScoredRun {
  return columns(specs.map((spec) => scoreQuestion(spec, draw(spec, n, rng))));
}
