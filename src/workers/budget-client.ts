/**
 * The New run wizard's budget planner (core/budget-plan.ts) in the recompute worker: its simulated
 * runs take seconds and would hold the page. In its own module, so it loads with the lazily
 * loaded planner; the same function on the main thread where no worker starts.
 */
import type { Result } from '../model/rows';
import type { BudgetOption, BudgetPlanInput } from '../core/budget-plan';
import { noRecomputeWorker, recomputeFailure, recomputeWorker, unavailable } from './recompute-client';

const planFailed = (cause: unknown) => recomputeFailure('budget', 'The budget could not be planned', cause);

export async function planBudgetOffPage(input: BudgetPlanInput): Promise<Result<BudgetOption[]>> {
  const api = recomputeWorker();
  if (api) {
    try {
      const reply = await api.budget(input);
      return reply.ok ? reply : planFailed(reply.error);
    } catch (err) {
      if (!unavailable(err)) return planFailed(err);
      noRecomputeWorker();
    }
  }
  try {
    const { planBudget } = await import('../core/budget-plan');
    return { ok: true, value: planBudget(input) };
  } catch (err) {
    return planFailed(err);
  }
}
