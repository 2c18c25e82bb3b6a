/**
 * The budget planner's answer to the latest inputs (core/budget-plan.ts, simulated in the
 * recompute worker): asked shortly after the inputs settle, so typing a budget does not start a
 * simulation per keystroke; an older answer that arrives late is dropped. The wizard's planner
 * and the report's rerun planner share it.
 */
import type { BudgetOption, BudgetPlanInput } from '../../core/budget-plan';
import { planBudgetOffPage } from '../../workers/budget-client';
import { errorText } from '../error-text';

/** How long the inputs must stay unchanged before the planner is asked. */
const SETTLE_MS = 300;

export class BudgetRequest {
  options = $state.raw<BudgetOption[] | null>(null);
  computing = $state(false);
  error = $state('');
  #asked = 0;

  /** Asks for `input` (null: nothing to plan, no options); call it from an $effect and return what it returns (the cleanup). */
  ask(input: BudgetPlanInput | null): () => void {
    if (!input) {
      this.options = null;
      return () => undefined;
    }
    const token = ++this.#asked;
    this.computing = true;
    const timer = setTimeout(async () => {
      const reply = await planBudgetOffPage(input).catch((e: unknown) => ({ ok: false as const, error: { kind: 'budget', message: errorText(e) } }));
      if (token !== this.#asked) return;
      this.computing = false;
      if (reply.ok) {
        this.options = reply.value;
        this.error = '';
      } else this.error = errorText(reply.error);
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }
}
