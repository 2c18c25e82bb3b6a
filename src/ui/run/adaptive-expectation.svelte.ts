/**
 * The review step's expected samples of an adaptive run (adaptive-estimate.ts), worked out just
 * after the step renders rather than during it (a few thousand simulated questions; remembered
 * per rule, so later renders are immediate), and the question family the budget planner assumes,
 * shared so that the review's expected cost assumes the family chosen in "Plan for a budget".
 */
import type { AdaptiveFamily } from '../../core/adaptive-families';
import type { SamplingSpec } from '../../model/run-spec';
import { familyExpectations, type FamilyExpectation } from './adaptive-estimate';

/** The family chosen in the budget planner (the first, the paper's easy–hard mix, until one is chosen). */
export const plannedFamily = $state<{ id: AdaptiveFamily }>({ id: 'easy-hard-mix' });

export class AdaptiveExpectation {
  /** null: not worked out yet (or a fixed-n run); []: the rule has problems, no expectation. */
  value = $state.raw<FamilyExpectation[] | null>(null);

  /** Works out `sampling`'s expectation (null: a fixed-n run, none); call it from an $effect and return what it returns. */
  ask(sampling: Pick<SamplingSpec, 'n' | 'adaptive'> | null): () => void {
    if (!sampling?.adaptive) {
      this.value = null;
      return () => undefined;
    }
    const timer = setTimeout(() => (this.value = familyExpectations(sampling) ?? []), 0);
    return () => clearTimeout(timer);
  }
}
