/**
 * The numbers of the Classroom page, computed from the core's simulator and estimators: a set
 * of questions with known answer distributions π, their samples, and Sem1, Sem2 and the oracle
 * c* = max π side by side. Pure functions of the settings, so the page and the tests agree.
 *
 * ECE* follows the paper: ECE(c*, a*) with a* the correctness of the population's favourite
 * answer (yStar), the calibration error no finite sample can beat. Sem1-ECE and Sem2-ECE score
 * the deployed answer (the modal class of the samples, y), as everywhere else.
 */
import { simulateSet, type QuestionSetOptions } from '../../core/simulate-families';
import type { SimulatedQuestion } from '../../core/simulate';
import { sem1 as sem1Of, sem2HeldOut, type Sem2Options } from '../../core/estimators';
import { eceEqualWidth } from '../../core/ece';
import { pairwiseMean } from '../../core/pairwise';
import { largestShareSE, meanSE, type MeanSE } from '../../core/standard-error';

export interface ClassroomSettings {
  questions: number;
  /** Samples per question. */
  n: number;
  /** Share of the samples in Sem2's selection block (the paper: one half). */
  selection: number;
  /** Range of the population top-two margin π(1) − π(2): small is hard, large is easy. */
  marginLow: number;
  marginHigh: number;
  /** Number of answer classes K. */
  classes: number;
  /** null: calibrated (the favourite is right with probability c*); else that fixed accuracy. */
  accuracy: number | null;
  seed: number;
}

export const DEFAULT_SETTINGS: ClassroomSettings = {
  questions: 500,
  n: 20,
  selection: 0.5,
  marginLow: 0,
  marginHigh: 0.6,
  classes: 4,
  accuracy: null,
  seed: 1,
};

/** Sem2 as the page computes it: the paper's R = 10 splits from default_rng(0), selection share as set. */
export function sem2Options(selection: number): Sem2Options {
  return { R: 10, seed: 0, selectionSize: (n) => Math.round(selection * n) };
}

export interface QuestionPoint {
  index: number;
  cStar: number;
  sem1: number;
  sem2: number;
  /** Deployed answer correct (modal class of the samples). */
  y: number;
  /** Population favourite correct. */
  yStar: number;
  piMargin: number;
}

export interface MarginBin {
  lo: number;
  hi: number;
  count: number;
  bias1: MeanSE;
  bias2: MeanSE;
  gap: MeanSE;
}

export interface ClassroomResult {
  settings: ClassroomSettings;
  simulated: SimulatedQuestion[];
  points: QuestionPoint[];
  accuracy: number;
  eceSem1: number;
  eceSem2: number;
  eceStar: number;
  /** Sem1 − c* and Sem2 − c* over questions: the estimators' bias, with Monte Carlo error. */
  bias1: MeanSE;
  bias2: MeanSE;
  /**
   * Mean Sem2 − c* with the classes numbered as real clustering numbers them (in order of first
   * appearance among the samples), so a tie goes to the class seen first, not to the population's
   * favourite (which the simulator numbers first): the difference shows what the simulator's
   * numbering hides at small n.
   */
  bias2AsClustered: MeanSE;
  /** Sem1 − Sem2: the observable difficulty meter. */
  gap: MeanSE;
  byMargin: MarginBin[];
}

/**
 * The difficulty meter's bands, in standard errors of a class share at n samples (0.5/√n, the
 * largest): set from the presets' simulations, where one answer dominating reads about 0.03,
 * answers in competition (margins up to 0.15 at n = 20, 0.05 at n = 50) about 0.75.
 */
export const GAP_BANDS = { easy: 0.15, hard: 0.6 } as const;
export const GAP_METER_MAX = 1.5;

/** The mean Sem1 − Sem2 gap in standard errors at n, and its band. */
export function gapReading(gap: number, n: number): { inSE: number; band: 'easy' | 'mixed' | 'hard' } {
  const inSE = gap / largestShareSE(n);
  return { inSE, band: inSE < GAP_BANDS.easy ? 'easy' : inSE < GAP_BANDS.hard ? 'mixed' : 'hard' };
}

/** Clamps settings into the ranges the page offers, so any input gives a valid simulation. */
export function normalizeSettings(s: ClassroomSettings): ClassroomSettings {
  const clamp = (x: number, lo: number, hi: number, fallback: number) => (Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : fallback);
  const low = clamp(s.marginLow, 0, 1, 0);
  const high = clamp(s.marginHigh, 0, 1, 1);
  return {
    questions: Math.round(clamp(s.questions, 1, 5000, DEFAULT_SETTINGS.questions)),
    n: Math.round(clamp(s.n, 2, 400, DEFAULT_SETTINGS.n)),
    selection: clamp(s.selection, 0.1, 0.9, 0.5),
    marginLow: Math.min(low, high),
    marginHigh: Math.max(low, high),
    classes: Math.round(clamp(s.classes, 2, 10, 4)),
    accuracy: s.accuracy === null ? null : clamp(s.accuracy, 0, 1, 0.7),
    seed: Math.round(clamp(s.seed, 0, 2 ** 31, 1)),
  };
}

export function setOptions(s: ClassroomSettings): QuestionSetOptions & { n: number } {
  return {
    count: s.questions,
    n: s.n,
    difficulty: [s.marginLow, s.marginHigh],
    classes: s.classes,
    correctness: s.accuracy === null ? 'calibrated' : { accuracy: s.accuracy },
    seed: s.seed,
  };
}

function questionPoint(q: SimulatedQuestion, index: number, options: Sem2Options): QuestionPoint {
  return {
    index,
    cStar: q.cStar,
    sem1: sem1Of(q.sizes),
    sem2: sem2HeldOut(q.assignments, q.pi.length, options),
    y: q.y,
    yStar: q.yStar,
    piMargin: q.piMargin,
  };
}

/** Bins of the population margin, width `width`, over the occupied range. */
export function biasByMargin(points: readonly QuestionPoint[], width = 0.05): MarginBin[] {
  const bins = new Map<number, QuestionPoint[]>();
  for (const p of points) {
    const b = Math.min(Math.floor(p.piMargin / width), Math.round(1 / width) - 1);
    const list = bins.get(b) ?? [];
    list.push(p);
    bins.set(b, list);
  }
  return [...bins.entries()]
    .sort(([a], [b]) => a - b)
    .map(([b, list]) => ({
      lo: b * width,
      hi: (b + 1) * width,
      count: list.length,
      bias1: meanSE(list.map((p) => p.sem1 - p.cStar)),
      bias2: meanSE(list.map((p) => p.sem2 - p.cStar)),
      gap: meanSE(list.map((p) => p.sem1 - p.sem2)),
    }));
}

/** The samples' classes renumbered in order of first appearance, as a clusterer lists them. */
export function firstAppearanceLabels(assignments: Int32Array): Int32Array {
  const number = new Map<number, number>();
  const out = new Int32Array(assignments.length);
  for (let i = 0; i < assignments.length; i++) {
    let k = number.get(assignments[i]);
    if (k === undefined) number.set(assignments[i], (k = number.size));
    out[i] = k;
  }
  return out;
}

function summarize(settings: ClassroomSettings, simulated: SimulatedQuestion[], points: QuestionPoint[]): ClassroomResult {
  const y = points.map((p) => p.y);
  const options = sem2Options(settings.selection);
  return {
    settings,
    simulated,
    points,
    accuracy: pairwiseMean(y),
    eceSem1: eceEqualWidth(points.map((p) => p.sem1), y),
    eceSem2: eceEqualWidth(points.map((p) => p.sem2), y),
    eceStar: eceEqualWidth(points.map((p) => p.cStar), points.map((p) => p.yStar)),
    bias1: meanSE(points.map((p) => p.sem1 - p.cStar)),
    bias2: meanSE(points.map((p) => p.sem2 - p.cStar)),
    bias2AsClustered: meanSE(simulated.map((q) => sem2HeldOut(firstAppearanceLabels(q.assignments), q.pi.length, options) - q.cStar)),
    gap: meanSE(points.map((p) => p.sem1 - p.sem2)),
    // Narrow margin ranges get narrower bins, so a hard-only set still shows a trend.
    byMargin: biasByMargin(points, settings.marginHigh - settings.marginLow <= 0.2 ? 0.02 : 0.05),
  };
}

export function runClassroom(input: ClassroomSettings): ClassroomResult {
  const settings = normalizeSettings(input);
  const simulated = simulateSet(setOptions(settings));
  const options = sem2Options(settings.selection);
  return summarize(settings, simulated, simulated.map((q, i) => questionPoint(q, i, options)));
}

/**
 * The same result as runClassroom, with the per-question estimators run in slices of about
 * `work` samples and a yield to the event loop between slices, so large settings keep the page
 * responsive. Resolves to null once `signal` aborts.
 */
export async function runClassroomInSlices(
  input: ClassroomSettings,
  signal: AbortSignal,
  work = 50_000,
): Promise<ClassroomResult | null> {
  const settings = normalizeSettings(input);
  const simulated = simulateSet(setOptions(settings));
  const options = sem2Options(settings.selection);
  const slice = Math.max(1, Math.floor(work / settings.n));
  const points: QuestionPoint[] = [];
  for (let start = 0; start < simulated.length; start += slice) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (signal.aborted) return null;
    for (let i = start; i < Math.min(simulated.length, start + slice); i++) points.push(questionPoint(simulated[i], i, options));
  }
  return summarize(settings, simulated, points);
}
