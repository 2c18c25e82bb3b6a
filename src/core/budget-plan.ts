/**
 * The budget planner's arithmetic (issue 27): for a budget in samples (the UI converts dollars
 * with the price table), the trade-off between questions and samples per question, each option
 * with the predicted half-width of the headline Sem2-ECE interval (core/ece-inference.ts) and the
 * range that prediction is good for.
 *
 *   planBudget({ budgetSamples: 40_000, maxSamples: 50, source: { family: 'easy-hard-mix' } })
 *   → [{ kind: 'fixed', n: 10, questions: 4000, samplesPerQuestion: 10, halfWidth: 0.0.., halfWidthRange: [.., ..] },
 *      { kind: 'fixed', n: 20, … }, { kind: 'fixed', n: 50, … }, { kind: 'adaptive', samplesPerQuestion: 41.6, … }]
 *
 * Where the questions come from (`source`):
 * - `{ family }`: a simulated family (core/adaptive-families.ts), before anything is sent;
 * - `{ firstRounds }`: a run's own first rounds, one array of answer keys per question (e.g. the
 *   selection samples of a stopped or earlier run). Each simulated question is one of those,
 *   drawn with replacement, with π drawn from Dirichlet(counts + ½, ½ for one unseen answer),
 *   the posterior under Jeffreys' prior: a question whose 5 answers agree is not taken as certain.
 * Both assume a calibrated model (the correct answer drawn from π): the width barely depends on the
 * model's miscalibration at the sizes planned here, and first rounds are not graded yet.
 *
 * Method: for each option, `replicates` simulated runs of the option's question count are scored
 * as a run would be (fixed n: reference Sem2; adaptive: the rule, adaptive Sem2, Y of the selection's
 * modal class) and the headline interval computed with its default settings. The prediction is the
 * median of the replicates' half-widths; its stated range is their smallest to largest, where one
 * more run of that size from the same question distribution falls with probability (R − 1)/(R + 1)
 * (90% at the default R = 19; exact for exchangeable runs, whatever the half-widths' distribution). Above `simulateAtMost`
 * questions, runs are simulated at that size and the half-width scaled by √(simulated / planned)
 * (the interval narrows as 1/√questions at a fixed confidence distribution).
 * The adaptive option's samples per question is the simulated mean (expectedAdaptiveSamples, which
 * the wizard's review step also uses for its expected cost); its question count is the
 * budget divided by it (the spend itself varies around that: its s.d. is `samplesSd`·√questions).
 */
import { adaptiveRule, DEFAULT_ADAPTIVE_RULE, type AdaptiveRule } from './adaptive-rule';
import { familySpecs, type AdaptiveFamily } from './adaptive-families';
import { sampleAdaptively, simulateAdaptiveRun, simulateFixedRun, type ScoredRun } from './adaptive-simulate';
import { eceInference } from './ece-inference';
import { defaultRng, type Generator } from './rng';
import type { QuestionSpec } from './simulate';
import { gammaDraw } from './simulate-families';

export type BudgetSource = { family: AdaptiveFamily } | { firstRounds: readonly (readonly string[])[] };

export interface BudgetPlanInput {
  /** Samples the budget buys (dollars ÷ price per sample, done by the caller). */
  budgetSamples: number;
  /** The most samples per question (the run's n). */
  maxSamples: number;
  source: BudgetSource;
  /** The adaptive rule's settings (default DEFAULT_ADAPTIVE_RULE). */
  rule?: Omit<AdaptiveRule, 'maxSamples'>;
  /** Questions the data set has: no option plans more (default: no limit). */
  questionsAvailable?: number;
  /** Simulated runs per option (default 19: the stated range is then a 90% prediction interval). */
  replicates?: number;
  /** Largest simulated run; larger plans are scaled (default 2000). */
  simulateAtMost?: number;
  /** Seed of the simulation (default 0): the same plan for the same input. */
  seed?: number;
}

export interface BudgetOption {
  kind: 'fixed' | 'adaptive';
  /** Samples per question for a fixed option; the maximum for the adaptive one. */
  n: number;
  /** Expected samples per question (n for a fixed option). */
  samplesPerQuestion: number;
  /** Standard deviation of one question's samples (0 for a fixed option). */
  samplesSd: number;
  /** Questions the budget affords (at most questionsAvailable). */
  questions: number;
  /** Expected samples spent: questions × samplesPerQuestion. */
  samples: number;
  /** Predicted half-width of the headline Sem2-ECE interval; NaN when no question is affordable. */
  halfWidth: number;
  /** Where a run's half-width is expected to fall: the simulated runs' range, a (R−1)/(R+1) prediction interval. */
  halfWidthRange: [number, number];
  /**
   * Mean Sem2-ECE of the simulated runs (at most `simulateAtMost` questions): what the interval
   * will be centred near. Small n inflates it (a calibrated source's true ECE is 0), so a narrow
   * interval at n = 10 is narrow around a biased value: show this beside the width.
   */
  ece: number;
}

const mean = (a: readonly number[]) => a.reduce((s, x) => s + x, 0) / a.length;
const sd = (a: readonly number[]) => {
  const m = mean(a);
  return a.length < 2 ? 0 : Math.sqrt(a.reduce((s, x) => s + (x - m) ** 2, 0) / (a.length - 1));
};

/** π ~ Dirichlet(counts + ½, ½ for one answer not seen yet); the correct answer drawn from π. */
function posteriorQuestion(keys: readonly string[], rng: Generator): QuestionSpec {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  const alphas = [...counts.values()].map((c) => c + 0.5);
  alphas.push(0.5);
  const g = alphas.map((a) => gammaDraw(a, rng));
  const sum = g.reduce((s, x) => s + x, 0);
  const pi = g.map((x) => x / sum);
  pi[pi.indexOf(Math.max(...pi))] += 1 - pi.reduce((s, x) => s + x, 0);
  const u = rng.random();
  let acc = 0;
  let correct = pi.length - 1;
  for (let k = 0; k < pi.length; k++) {
    acc += pi[k];
    if (u < acc) {
      correct = k;
      break;
    }
  }
  return { pi, correct: [correct] };
}

/** `count` questions drawn from the source. */
export function sourceQuestions(source: BudgetSource, count: number, rng: Generator): QuestionSpec[] {
  if ('family' in source) return familySpecs(source.family, count, rng);
  const rounds = source.firstRounds.filter((r) => r.length > 0);
  if (rounds.length === 0) throw new RangeError('budget plan: the first rounds hold no answers');
  return Array.from({ length: count }, () => posteriorQuestion(rounds[Math.floor(rng.random() * rounds.length)], rng));
}

type Sampler = (specs: QuestionSpec[], rng: Generator) => ScoredRun;

function predict(
  source: BudgetSource,
  sampler: Sampler,
  questions: number,
  replicates: number,
  cap: number,
  seed: number,
): { halfWidth: number; halfWidthRange: [number, number]; ece: number } {
  if (questions < 1) return { halfWidth: NaN, halfWidthRange: [NaN, NaN], ece: NaN };
  const simulated = Math.min(questions, cap);
  const scale = Math.sqrt(simulated / questions);
  const halfWidths: number[] = [];
  const eces: number[] = [];
  for (let r = 0; r < replicates; r++) {
    const rng = defaultRng(seed * 1000 + r);
    const run = sampler(sourceQuestions(source, simulated, rng), rng);
    const inference = eceInference(run.sem2, run.y);
    halfWidths.push(((inference.interval[1] - inference.interval[0]) / 2) * scale);
    eces.push(inference.ece);
  }
  // Half-widths are skewed and sometimes bimodal (a run whose plug-in ECE is small gets an interval
  // from 0), so the range is distribution-free: one more run falls between the smallest and the
  // largest of R exchangeable runs with probability (R − 1)/(R + 1) (90% for the default R = 19).
  const sorted = [...halfWidths].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { halfWidth: median, halfWidthRange: [sorted[0], sorted[sorted.length - 1]], ece: mean(eces) };
}

/** Largest simulated run by default (planBudget's `simulateAtMost`), also the questions of its pilot of the adaptive rule. */
export const SIMULATE_AT_MOST = 2000;

/** Samples per question the rule draws on a source: the mean over simulated questions, its s.d. and the mean's standard error. */
export interface ExpectedSamples {
  mean: number;
  sd: number;
  /** Standard error of `mean` (sd / √questions): how far the simulation's mean may be from the source's. */
  se: number;
  questions: number;
}

/**
 * The samples per question `rule` draws on questions like the source's: `questions` simulated
 * questions (default SIMULATE_AT_MOST) sampled by the rule itself (planAdaptive through sampleAdaptively), from
 * the stream seed·1000 + 999. Deterministic for a given input. Only the samples are drawn, not
 * scored, so it is cheap enough for a page to call as the rule changes (about 2000 × n draws).
 */
export function expectedAdaptiveSamples(source: BudgetSource, rule: AdaptiveRule, { questions = SIMULATE_AT_MOST, seed = 0 }: { questions?: number; seed?: number } = {}): ExpectedSamples {
  const rng = defaultRng(seed * 1000 + 999);
  const drawn = sourceQuestions(source, questions, rng).map((spec) => sampleAdaptively(spec, rule, rng).assignments.length);
  const s = sd(drawn);
  return { mean: mean(drawn), sd: s, se: s / Math.sqrt(drawn.length), questions: drawn.length };
}

/** What is wrong with the input, in words; [] when it can be planned. */
export function budgetPlanProblems(input: BudgetPlanInput): string[] {
  const problems: string[] = [];
  if (!(input.budgetSamples >= 0) || !Number.isFinite(input.budgetSamples)) problems.push(`the budget must be a number of samples, at least 0, got ${input.budgetSamples}`);
  if (!Number.isInteger(input.maxSamples) || input.maxSamples < 2) problems.push(`the most samples per question must be an integer of at least 2, got ${input.maxSamples}`);
  if (input.questionsAvailable !== undefined && !(Number.isInteger(input.questionsAvailable) && input.questionsAvailable >= 0)) {
    problems.push(`the questions available must be a whole number, got ${input.questionsAvailable}`);
  }
  if ('firstRounds' in input.source && !input.source.firstRounds.some((r) => r.length > 0)) problems.push('the first rounds hold no answers');
  return problems;
}

/**
 * The options: fixed n ∈ {10, 20, maxSamples} (those not above the maximum) and adaptive with the
 * rule, each with its questions, samples and predicted interval half-width. Deterministic for a
 * given input (seeded). Throws a RangeError listing budgetPlanProblems.
 */
export function planBudget(input: BudgetPlanInput): BudgetOption[] {
  const problems = budgetPlanProblems(input);
  if (problems.length) throw new RangeError(`budget plan: ${problems.join('; ')}`);
  const { budgetSamples, maxSamples, source } = input;
  const replicates = Math.max(2, Math.floor(input.replicates ?? 19));
  const cap = Math.max(1, Math.floor(input.simulateAtMost ?? SIMULATE_AT_MOST));
  const seed = input.seed ?? 0;
  const available = input.questionsAvailable ?? Infinity;
  const rule = adaptiveRule(maxSamples, input.rule ?? DEFAULT_ADAPTIVE_RULE);
  const affordable = (perQuestion: number) => Math.min(available, Math.floor(budgetSamples / perQuestion));

  const options: BudgetOption[] = [];
  const fixedNs = [...new Set([10, 20, maxSamples].filter((n) => n <= maxSamples))];
  fixedNs.forEach((n, i) => {
    const questions = affordable(n);
    const predicted = predict(source, (s, rng) => simulateFixedRun(s, n, rng), questions, replicates, cap, seed + 17 * (i + 1));
    options.push({ kind: 'fixed', n, samplesPerQuestion: n, samplesSd: 0, questions, samples: questions * n, ...predicted });
  });

  // The adaptive option's samples per question, from a pilot run of the rule on the source.
  const pilot = expectedAdaptiveSamples(source, rule, { questions: cap, seed });
  const perQuestion = pilot.mean;
  const questions = affordable(perQuestion);
  const predicted = predict(source, (s, rng) => simulateAdaptiveRun(s, rule, rng), questions, replicates, cap, seed + 17 * 99);
  options.push({ kind: 'adaptive', n: maxSamples, samplesPerQuestion: perQuestion, samplesSd: pilot.sd, questions, samples: questions * perQuestion, ...predicted });
  return options;
}
