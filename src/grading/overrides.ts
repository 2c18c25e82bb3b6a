/**
 * Manual overrides of single grades, stored apart from the computed grades (their own store and
 * export section), so regrading with another grader or prompt never erases a user's correction:
 * the computed rows are recomputed, then the overrides are applied on top.
 */
import type { Grade, GradedRow } from '../model/rows';
import { gradeToY } from './types';

export interface GradeOverride {
  /** Question id and model: the key of a graded row. */
  id: string;
  model: string;
  grade: Grade;
  note?: string;
  /** ISO 8601 time of the override; the latest one for a row wins. */
  at: string;
}

export type OverriddenRow = GradedRow & {
  /** Present when a manual override replaced the computed grade. */
  override?: { computedGrade: Grade | null; note?: string; at: string };
};

const rowKey = (id: string, model: string) => `${id}\u0000${model}`;

/** Pure: computed rows in, rows with overrides applied out (same order; inputs untouched). */
export function applyOverrides(computed: GradedRow[], overrides: GradeOverride[]): OverriddenRow[] {
  const latest = new Map<string, GradeOverride>();
  for (const o of overrides) {
    const k = rowKey(o.id, o.model);
    const prev = latest.get(k);
    // Equal times: the later entry in the list wins.
    if (!prev || o.at >= prev.at) latest.set(k, o);
  }
  return computed.map((row) => {
    const o = latest.get(rowKey(row.id, row.model));
    if (!o) return { ...row };
    return { ...row, grade: o.grade, Y: gradeToY(o.grade), override: { computedGrade: row.grade, ...(o.note ? { note: o.note } : {}), at: o.at } };
  });
}
