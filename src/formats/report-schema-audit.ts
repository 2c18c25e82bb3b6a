/**
 * The report schema's part for the audit lines a report may carry (issue 30): each line read as
 * the audit file's reader reads it (formats/audit-file.ts), its partition checked the same way.
 */
import { z } from 'zod';
import { MAX_SAMPLES_PER_QUESTION } from '../model/scoring-limits';
import { AUDIT_GRADES, MAX_AUDIT_LINES, partitionProblem } from './audit-file';
import { AUDIT_DRAWS } from './audit-plan-line';
import { count, expect, list, seed, text } from './report-schema-fields';

/** A line of a person's audit (formats/audit-file.ts), embedded in the report it audits; its partition checked as the file's reader checks it. */
export const auditLine = z
  .object({
    id: text(),
    classes: list(list(count(0, MAX_SAMPLES_PER_QUESTION - 1), MAX_SAMPLES_PER_QUESTION), MAX_SAMPLES_PER_QUESTION),
    grade: z.enum(AUDIT_GRADES as readonly ['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED'], { error: expect(AUDIT_GRADES.join(', ')) }),
    by: text(),
    at: text(),
    model: text().optional(),
  })
  .superRefine((line, ctx) => {
    const problem = partitionProblem(line.classes);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['classes'], message: problem });
  });

/** A plan the attached audit's questions were drawn by (formats/audit-plan-line.ts), as the report embeds it (`halfWidth` in the report's case). */
export const auditPlan = z
  .object({
    by: text(),
    model: text().optional(),
    draw: z.enum(AUDIT_DRAWS as readonly ['plain', 'stratified', 'all'], { error: expect(AUDIT_DRAWS.join(', ')) }),
    seed: seed(),
    strata: text().optional(),
    halfWidth: z.number({ error: expect('a number between 0 and 1') }).gt(0, { error: expect('a number between 0 and 1') }).lt(1, { error: expect('a number between 0 and 1') }).optional(),
    ids: list(text(), MAX_AUDIT_LINES),
  })
  .superRefine((p, ctx) => {
    if ((p.draw === 'stratified') !== (p.strata !== undefined)) ctx.addIssue({ code: 'custom', path: ['strata'], message: p.draw === 'stratified' ? 'missing (a stratified draw names its strata)' : `only a stratified draw has strata (this draw is ${p.draw})` });
  });

/**
 * The automatic class of each answer of audited questions, {model: {question id: class per
 * answer, in sampling order}}: what a report without samples (a kept copy of a "rows" share link)
 * carries so that its audit's results still compare the person's partitions with the clusterer's.
 */
export type AuditClasses = Record<string, Record<string, number[]>>;

export const auditClasses = z.record(text(), z.record(text(), list(count(0, MAX_SAMPLES_PER_QUESTION - 1), MAX_SAMPLES_PER_QUESTION)), { error: expect('an object of models') });

interface ClassedReport {
  models: readonly { model: string; questions: readonly { id: string; n: number }[] }[];
  audit?: readonly { id: string; model?: string }[];
}

/**
 * What is wrong with `classes` for `report`, with where, or null (`names`: the problem is a name,
 * "it names a model the report does not have"): every model and question named
 * must be the report's, with one class per answer, a whole number from 0 to n-1; with
 * `auditedOnly` (a share link, which is never trusted) only audited questions may be named.
 */
export function auditClassesMismatch(classes: AuditClasses, report: ClassedReport, { auditedOnly }: { auditedOnly: boolean }): { path: string[]; problem: string; names?: true } | null {
  const only = report.models.length === 1 ? report.models[0]?.model : undefined;
  const audited = new Set((report.audit ?? []).map((l) => JSON.stringify([l.model ?? only ?? null, l.id])));
  for (const [model, byId] of Object.entries(classes)) {
    const m = report.models.find((x) => x.model === model);
    if (!m) return { path: [model], problem: `a model the report does not have (${JSON.stringify(model)})`, names: true };
    const rows = new Map(m.questions.map((q) => [q.id, q]));
    for (const [id, cls] of Object.entries(byId)) {
      if (auditedOnly && !audited.has(JSON.stringify([model, id]))) return { path: [model, id], problem: `a question the audit does not (${JSON.stringify(id)})`, names: true };
      const q = rows.get(id);
      if (!q) return { path: [model, id], problem: `a question the report does not have (${JSON.stringify(id)})`, names: true };
      if (cls.length !== q.n) return { path: [model, id], problem: `question ${JSON.stringify(id)} needs a class for each of its ${q.n} answers` };
      if (!cls.every((c) => c < q.n)) return { path: [model, id], problem: `question ${JSON.stringify(id)} has a class that is not a whole number from 0 to ${q.n - 1}` };
    }
  }
  return null;
}
