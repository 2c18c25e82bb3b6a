/**
 * What one sample and one question cost in the run the wizard holds, for the budget planner's
 * dollars: the run's own estimate (estimate.ts, the price table) split into the part that grows
 * with the samples (each model's sampling, typical replies) and the part paid once per question
 * whatever the samples (judges, p(True)). A budget in dollars then buys
 * questions = budget / (samples per question × per sample + per question).
 */
import type { PriceTable } from '../../model/cost';
import type { RunSpec } from '../../model/run-spec';
import { estimateRun } from './estimate';

export interface UnitCosts {
  /** USD of one sample slot (one sample from every model of the run); null when a model has no price. */
  perSample: number | null;
  /** USD paid per question besides its samples (judges, p(True)); null when one of them has no price. */
  perQuestion: number | null;
  /** Every model runs on a local server: nothing is paid. */
  local: boolean;
}

/** The run's typical cost per sample slot and per question, at the draft's n. */
export function unitCosts(spec: RunSpec, prices: PriceTable): UnitCosts {
  const { rows, total } = estimateRun(spec, prices);
  const questions = spec.dataset.questions.length;
  const slots = questions * spec.sampling.n;
  const sum = (list: typeof rows) => (list.some((e) => e.cost.typical === null) ? null : list.reduce((s, e) => s + (e.cost.typical ?? 0), 0));
  const sampled = sum(rows.filter((e) => e.samples > 0));
  const once = sum(rows.filter((e) => e.samples === 0));
  return {
    perSample: sampled === null || slots === 0 ? null : sampled / slots,
    perQuestion: once === null || questions === 0 ? null : once / questions,
    local: total.local === true,
  };
}

/**
 * USD of `questions` questions at `samplesPerQuestion` samples each (null: a cost is unknown): the
 * one place a number of samples becomes dollars, for the planner's rows and the review step's
 * expected cost of an adaptive run alike. At the run's n it is the estimate's typical total.
 */
export function costFor(questions: number, samplesPerQuestion: number, costs: UnitCosts): number | null {
  if (costs.perSample === null || costs.perQuestion === null) return null;
  return questions * (samplesPerQuestion * costs.perSample + costs.perQuestion);
}

/** Questions a budget in dollars buys at `samplesPerQuestion` samples each (null: a cost is unknown or nothing is paid). */
export function questionsForDollars(dollars: number, samplesPerQuestion: number, costs: UnitCosts): number | null {
  const each = costFor(1, samplesPerQuestion, costs);
  return each !== null && each > 0 ? Math.floor(dollars / each) : null;
}
