/**
 * The budget planner's rows and sentence (the wizard's "Plan for a budget"): the planner's options
 * (core/budget-plan.ts, which plans a budget in samples) turned into what a budget in dollars or
 * samples buys for this run. A budget in dollars buys each option's questions at the run's own
 * cost per sample and per question (budget-costs.ts); where that differs from the planner's count
 * (a judge's cost per question), the predicted half-width is moved by √(planned / bought), as the
 * planner itself scales a plan larger than it simulates (the interval narrows as 1/√questions).
 */
import type { BudgetOption } from '../../core/budget-plan';
import { costFor, questionsForDollars, type UnitCosts } from './budget-costs';

export type Budget = { kind: 'dollars'; amount: number } | { kind: 'samples'; amount: number };

export interface PlanRow {
  /** 'fixed-50', 'adaptive'. */
  key: string;
  kind: BudgetOption['kind'];
  n: number;
  questions: number;
  samplesPerQuestion: number;
  samples: number;
  /** USD at the run's prices; null when a price is unknown. */
  cost: number | null;
  halfWidth: number;
  halfWidthRange: [number, number];
  ece: number;
  /** The data set has no more questions: the budget is not all spent. */
  capped: boolean;
}

/** The samples a dollar budget buys, for the planner (per-question costs are applied to its options afterwards). */
export function budgetSamples(budget: Budget, costs: UnitCosts | null): number | null {
  if (budget.kind === 'samples') return budget.amount;
  if (!costs || costs.perSample === null || !(costs.perSample > 0)) return null;
  return budget.amount / costs.perSample;
}

/** The options as rows for this budget; `available`: the data set's questions, when known. */
export function planRows(options: readonly BudgetOption[], budget: Budget, costs: UnitCosts | null, available?: number): PlanRow[] {
  return options.map((o) => {
    let questions = o.questions;
    let scale = 1;
    if (budget.kind === 'dollars' && costs) {
      const bought = questionsForDollars(budget.amount, o.samplesPerQuestion, costs);
      if (bought !== null) {
        const q = Math.min(available ?? Infinity, bought);
        if (q > 0 && o.questions > 0) scale = Math.sqrt(o.questions / q);
        questions = q;
      }
    }
    const cost = costs ? costFor(questions, o.samplesPerQuestion, costs) : null;
    return {
      key: o.kind === 'fixed' ? `fixed-${o.n}` : 'adaptive',
      kind: o.kind,
      n: o.n,
      questions,
      samplesPerQuestion: o.samplesPerQuestion,
      samples: questions * o.samplesPerQuestion,
      cost,
      halfWidth: o.halfWidth * scale,
      halfWidthRange: [o.halfWidthRange[0] * scale, o.halfWidthRange[1] * scale],
      ece: o.ece,
      capped: available !== undefined && questions >= available,
    };
  });
}

const count = (v: number) => Math.round(v).toLocaleString('en-US');
const pm = (v: number) => (Number.isFinite(v) ? `±${v.toFixed(3)}` : '—');

/** A row's option in words: "50 samples each" or "adaptive, about 41.7 samples each (at most 50)". */
export function optionWords(r: Pick<PlanRow, 'kind' | 'n' | 'samplesPerQuestion'>): string {
  return r.kind === 'fixed' ? `${r.n} samples each` : `adaptive, about ${r.samplesPerQuestion.toFixed(1)} samples each (at most ${r.n})`;
}

/**
 * The trade-off in one sentence: the fixed option at the maximum against the adaptive one, e.g.
 * "With $40: 800 questions × 50, or 977 questions adaptive; interval ±0.027 vs ±0.024."
 */
export function planSentence(rows: readonly PlanRow[], budget: Budget): string {
  const fixed = rows.filter((r) => r.kind === 'fixed').at(-1);
  const adaptive = rows.find((r) => r.kind === 'adaptive');
  const amount = budget.kind === 'dollars' ? `$${budget.amount.toLocaleString('en-US', { maximumFractionDigits: 2 })}` : `${count(budget.amount)} samples`;
  if (!fixed || !adaptive) return '';
  return `With ${amount}: ${count(fixed.questions)} questions × ${fixed.n}, or ${count(adaptive.questions)} questions adaptive; Sem2-ECE interval ${pm(fixed.halfWidth)} vs ${pm(adaptive.halfWidth)}.`;
}
