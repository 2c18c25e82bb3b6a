/**
 * The page's plan in the statistics' terms: which strata a report offers (its margin regimes and
 * each question field with a few values), and the stored plan's draw through the pipeline's seeded
 * draw (pipeline/audit-plan.ts), so the CLI and the page draw the same questions from one seed.
 */
import { drawAuditQuestions, type AuditStrata } from '../../pipeline/audit-plan';
import type { AuditPlan } from '../../model/audit-repository';
import type { ModelReport } from '../../model/report';

export interface PlanChoice {
  model: string;
  k: number;
  seed: number;
  /** 'regime', a question field's name, or null. */
  stratifyBy: string | null;
  /** The half-width the person sized the plan for (the plan-size form's). */
  halfWidth?: number;
}

/** The stored plan's strata as the statistics name them. */
export const strataOf = (stratifyBy: string | null): AuditStrata => (stratifyBy === null ? { by: 'none' } : stratifyBy === 'regime' ? { by: 'regime' } : { by: 'field', field: stratifyBy });

/** What a plan can be stratified by: the regimes, and each question field with 2 to 20 values. */
export function stratifyOptions(model: ModelReport): string[] {
  const values = new Map<string, Set<string>>();
  for (const q of model.questions) {
    for (const [k, v] of Object.entries(q.fields ?? {})) {
      if (!values.has(k)) values.set(k, new Set());
      values.get(k)!.add(String(v));
    }
  }
  return ['regime', ...[...values].filter(([, s]) => s.size >= 2 && s.size <= 20).map(([k]) => k)];
}

/** The plan's questions: k drawn (all when k is at least the model's count), in the report's order. */
export function drawPlan(model: ModelReport, choice: PlanChoice): AuditPlan {
  const drawn = drawAuditQuestions(model.questions, choice.k, choice.seed, strataOf(choice.stratifyBy));
  const plan: AuditPlan = { model: model.model, k: choice.k, seed: choice.seed, stratifyBy: choice.stratifyBy, ids: drawn.ids };
  if (choice.halfWidth !== undefined) plan.halfWidth = choice.halfWidth;
  return plan;
}
