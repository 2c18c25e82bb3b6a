/**
 * Clustered rows → the authors' graded rows. Rows whose clustering failed are written with
 * grade null / Y null and their reason, never graded on an empty label.
 */
import { gradeToY, type ClusteredRow, type GradedRow } from '../model/rows';
import type { Usage } from '../model/provider';
import type { Grader } from './grader';

/** A clustered row as the cluster command writes it: `error` marks a failed clustering. */
export type ClusteredRowIn = ClusteredRow & { error?: string; options?: string[] };
export type GradedRowOut = GradedRow & { error?: string; grade_rule?: string };

export async function gradeRow(row: ClusteredRowIn, grader: Grader, signal?: AbortSignal): Promise<{ row: GradedRowOut; usage?: Usage }> {
  const base = { id: row.id, model: row.model, question: row.question, gold_answer: row.gold_answer, modal_cluster_label: row.modal_cluster_label ?? '' };
  if (row.error || !(row.n_clusters > 0)) {
    return { row: { ...base, grade: null, Y: null, error: `not graded: clustering failed${row.error ? ` (${row.error})` : ''}` } };
  }
  const outcome = await grader.grade(
    { id: row.id, question: row.question, gold: row.gold_answer, aliases: row.gold_answer_aliases, predicted: row.modal_cluster_label, options: row.options },
    signal,
  );
  if (!outcome.ok) return { row: { ...base, grade: null, Y: null, error: outcome.error.message }, usage: outcome.usage };
  return { row: { ...base, grade: outcome.value, Y: gradeToY(outcome.value), ...(outcome.rule ? { grade_rule: outcome.rule } : {}) }, usage: outcome.usage };
}
