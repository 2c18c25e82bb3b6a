/**
 * The expected cost of an adaptive run, for the wizard's review step (issue 27). The estimate
 * table (estimate.ts) counts every question at the maximum n: that is what the run may spend at
 * most, and it stays the cap shown. An adaptive run usually spends less, by how many questions
 * stop early, which depends on the model's answers and is not known before sampling. So the
 * expectation is the budget planner's (core/budget-plan.ts, expectedAdaptiveSamples): the run's
 * own rule sampled over simulated questions of each of the planner's families, one of them the
 * assumed one (the family chosen in "Plan for a budget"), the others giving the range. Samples
 * become dollars through the run's own unit costs (budget-costs.ts costFor), the same arithmetic as
 * the planner's rows, so at the maximum the figure is the table's typical total.
 *
 * What it assumes, said beside it: questions like the family's (calibrated, simulated), typical
 * replies (the table's typical column), and answers compared word for word after normalising, as
 * the rule compares them: a model that words one answer several ways looks split and spends more.
 */
import { ADAPTIVE_FAMILIES, type AdaptiveFamily } from '../../core/adaptive-families';
import { expectedAdaptiveSamples, SIMULATE_AT_MOST, type ExpectedSamples } from '../../core/budget-plan';
import type { PriceTable } from '../../model/cost';
import { adaptiveRuleOf, type RunSpec, type SamplingSpec } from '../../model/run-spec';
import { costFor, unitCosts } from './budget-costs';

/**
 * Questions simulated per family: as many as the planner's pilot, with its seed, so the review and
 * the planner's adaptive row give the same samples per question for the same rule and family (the
 * mean's standard error is about 0.2 to 0.3 samples).
 */
export const SIMULATED_QUESTIONS = SIMULATE_AT_MOST;

export interface FamilyExpectation {
  family: AdaptiveFamily;
  label: string;
  samples: ExpectedSamples;
}

/** Results kept per rule: the review step is opened again and again with the same rule. */
const remembered = new Map<string, FamilyExpectation[]>();
const REMEMBERED = 16;

/**
 * Samples per question the run's rule is expected to draw on each of the planner's families, in
 * ADAPTIVE_FAMILIES's order; null for a fixed-n run or a rule with problems. Seeded: the same rule,
 * the same figures.
 */
export function familyExpectations(sampling: Pick<SamplingSpec, 'n' | 'adaptive'>, questions = SIMULATED_QUESTIONS): FamilyExpectation[] | null {
  const rule = adaptiveRuleOf(sampling);
  if (!rule) return null;
  const key = JSON.stringify([rule, questions]);
  const known = remembered.get(key);
  if (known) return known;
  let value: FamilyExpectation[];
  try {
    value = ADAPTIVE_FAMILIES.map((f) => ({ family: f.id, label: f.label, samples: expectedAdaptiveSamples({ family: f.id }, rule, { questions }) }));
  } catch {
    // A rule with problems (the sampling step says which) has no expectation.
    return null;
  }
  if (remembered.size >= REMEMBERED) remembered.delete(remembered.keys().next().value!);
  remembered.set(key, value);
  return value;
}

export interface AdaptiveCost {
  maxSamples: number;
  /** The assumed family's expectation. */
  assumed: FamilyExpectation;
  /** USD expected under the assumed family, typical replies; null when a model has no price. */
  expected: number | null;
  /** USD with every question at the maximum, typical replies (the estimate table's typical total): the cap. */
  atMost: number | null;
  /** The families that draw the fewest and the most samples, with their cost. */
  fewest: { family: FamilyExpectation; cost: number | null };
  most: { family: FamilyExpectation; cost: number | null };
  /** Every model runs locally: nothing is paid. */
  local: boolean;
}

/** The expected and the largest cost of the adaptive run `spec` at `prices`, assuming questions like `family`'s. */
export function adaptiveCost(spec: RunSpec, prices: PriceTable, expectations: readonly FamilyExpectation[], family: AdaptiveFamily): AdaptiveCost {
  const costs = unitCosts(spec, prices);
  const questions = spec.dataset.questions.length;
  const at = (e: FamilyExpectation) => costFor(questions, e.samples.mean, costs);
  const assumed = expectations.find((e) => e.family === family) ?? expectations[0];
  const sorted = [...expectations].sort((a, b) => a.samples.mean - b.samples.mean);
  return {
    maxSamples: spec.sampling.n,
    assumed,
    expected: at(assumed),
    atMost: costFor(questions, spec.sampling.n, costs),
    fewest: { family: sorted[0], cost: at(sorted[0]) },
    most: { family: sorted[sorted.length - 1], cost: at(sorted[sorted.length - 1]) },
    local: costs.local,
  };
}

const samplesWords = (e: FamilyExpectation) => e.samples.mean.toFixed(1);

/** Dollars, with two significant digits below a cent: a small run's expectation and cap are fractions of one, and "< $0.01" twice would say nothing. */
export function usdFine(v: number): string {
  if (v === 0) return '$0';
  return v >= 0.01 ? `$${v.toFixed(2)}` : `$${v.toPrecision(2)}`;
}

/**
 * The review step's sentence, e.g. "Expected ≈ $12.41 ($14.90 at the maximum, typical replies): about 41.7 samples per
 * question of at most 50, if the questions are like “half easy …”; over the planner's families
 * 31.5 to 48.4 samples, $9.38 to $14.43."
 */
export function adaptiveCostWords(c: AdaptiveCost): string {
  const samples = `about ${samplesWords(c.assumed)} samples per question of at most ${c.maxSamples}, if the questions are like “${c.assumed.label}”`;
  const range = `${samplesWords(c.fewest.family)} to ${samplesWords(c.most.family)} samples`;
  if (c.local) return `Expected: ${samples} (over the planner's families ${range}); nothing is paid per token (local models).`;
  if (c.expected === null || c.atMost === null) return `Expected: ${samples} (over the planner's families ${range}); the cost is unknown (a model has no price).`;
  const usd = (v: number | null) => (v === null ? 'unknown' : usdFine(v));
  return `Expected ≈ ${usd(c.expected)} (${usd(c.atMost)} at the maximum, typical replies): ${samples}; over the planner's families ${range}, ${usd(c.fewest.cost)} to ${usd(c.most.cost)}.`;
}

/** What the expectation assumes, in words (said beside it). */
export const ADAPTIVE_COST_ASSUMES =
  'The expectation runs this rule over simulated questions (a calibrated model, typical replies) and compares answers word for word after normalising, as the rule does: a model that words one answer several ways looks split and spends more. The table counts every question at the maximum: the most this run can spend.';
