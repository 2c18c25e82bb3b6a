/**
 * The classroom's adaptive-sampling lesson (issue 27): the same simulated questions sampled by the
 * stopping rule a run uses (core/adaptive-rule.ts through core/adaptive-simulate.ts), to show
 * where it stops (samples drawn against the question's true top-two margin) and why Sem2 stays
 * honest. Sem2 here is the held-out share of the selection's modal answer z, so its target is
 * π(z), the true probability of the answer the selection chose: the rule fixes the held-out size
 * from the selection alone, and its mean error against π(z) is zero within Monte Carlo error. The
 * contrast is a rule that peeks: it draws the held-out block in rounds too and stops as soon as
 * the held-out share looks as good as the selection's, which is optional stopping on the very
 * samples that measure, and reads high. Pure functions of the questions and a seed.
 */
import { adaptiveRule, type AdaptiveRule } from '../../core/adaptive-rule';
import { adaptiveModalClass, adaptiveSem2 } from '../../core/adaptive-sem2';
import { sampleAdaptively } from '../../core/adaptive-simulate';
import { classSizes, sem1 } from '../../core/estimators';
import { defaultRng, type Generator } from '../../core/rng';
import { simulateQuestion, type QuestionSpec } from '../../core/simulate';
import { meanSE, type MeanSE } from '../../core/standard-error';
import { spendBars, type SpendBar } from '../report/adaptive-spend';

/** Questions the lesson samples at most (the page's first ones): a few thousand show the bias clearly and compute at once. */
export const LESSON_QUESTIONS = 3000;

/** Questions grouped by their true top-two margin: how many samples the rule drew there. */
export interface StopByMargin {
  lo: number;
  hi: number;
  count: number;
  meanSamples: number;
  /** Share of the group that stopped before the maximum. */
  stoppedEarly: number;
}

export interface AdaptiveLesson {
  rule: AdaptiveRule;
  questions: number;
  used: number;
  fixed: number;
  bars: SpendBar[];
  byMargin: StopByMargin[];
  /** Mean Sem2 − π(z) under the rule: zero within its error. */
  honest: MeanSE;
  /** Mean Sem2 − π(z) under the peeking rule: above zero. */
  peeking: MeanSE;
  /** Samples the peeking rule drew, for comparison. */
  peekingUsed: number;
  /** Mean Sem1 − c* on each question's own n. */
  sem1: MeanSE;
}

/**
 * The peeking rule's held-out block for a selection of `selection` samples: rounds of `round`,
 * stopping once z's held-out share reaches its selection share (or at the maximum).
 */
function peekHeldOut(spec: QuestionSpec, selected: Int32Array, selection: number, rule: AdaptiveRule, rng: Generator): Int32Array {
  const z = adaptiveModalClass(selected, selection);
  let zInSelection = 0;
  for (let i = 0; i < selection; i++) if (selected[i] === z) zInSelection++;
  const target = zInSelection / selection;
  const out: number[] = [];
  let hits = 0;
  while (selection + out.length < rule.maxSamples) {
    const room = rule.maxSamples - selection - out.length;
    for (const k of simulateQuestion(spec, Math.min(rule.roundSize, room), rng).assignments) {
      out.push(k);
      if (k === z) hits++;
    }
    if (hits / out.length >= target) break;
  }
  return Int32Array.from(out);
}

/** The lesson over `specs`, at most `maxSamples` each, the rule's defaults unless given; one seeded stream. */
export function adaptiveLesson(specs: readonly QuestionSpec[], maxSamples: number, seed: number, settings: Partial<Omit<AdaptiveRule, 'maxSamples'>> = {}, marginWidth = 0.1): AdaptiveLesson {
  const rule = adaptiveRule(maxSamples, settings);
  const rng = defaultRng(seed);
  const counts: number[] = [];
  const honest: number[] = [];
  const peeking: number[] = [];
  const bias1: number[] = [];
  let peekingUsed = 0;
  const groups = new Map<number, { samples: number[]; early: number }>();
  for (const spec of specs) {
    const { assignments, selection } = sampleAdaptively(spec, rule, rng);
    const n = assignments.length;
    counts.push(n);
    const z = adaptiveModalClass(assignments, selection);
    honest.push(adaptiveSem2(assignments, selection) - spec.pi[z]);
    const sizes = classSizes(assignments, spec.pi.length);
    bias1.push(sem1(sizes) - Math.max(...spec.pi));
    // The peeking rule keeps the rule's selection block and draws its held-out block its own way.
    const peeked = peekHeldOut(spec, assignments, selection, rule, rng);
    const joined = new Int32Array(selection + peeked.length);
    joined.set(assignments.subarray(0, selection));
    joined.set(peeked, selection);
    peekingUsed += joined.length;
    peeking.push(adaptiveSem2(joined, selection) - spec.pi[z]);

    const sorted = [...spec.pi].sort((a, b) => b - a);
    const margin = sorted.length > 1 ? sorted[0] - sorted[1] : 1;
    const b = Math.min(Math.floor(margin / marginWidth), Math.round(1 / marginWidth) - 1);
    const g = groups.get(b) ?? { samples: [], early: 0 };
    g.samples.push(n);
    if (n < maxSamples) g.early++;
    groups.set(b, g);
  }
  const byMargin = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([b, g]) => ({ lo: b * marginWidth, hi: (b + 1) * marginWidth, count: g.samples.length, meanSamples: g.samples.reduce((s, x) => s + x, 0) / g.samples.length, stoppedEarly: g.early / g.samples.length }));
  const used = counts.reduce((s, x) => s + x, 0);
  return { rule, questions: specs.length, used, fixed: specs.length * maxSamples, bars: spendBars(counts, maxSamples), byMargin, honest: meanSE(honest), peeking: meanSE(peeking), peekingUsed, sem1: meanSE(bias1) };
}
