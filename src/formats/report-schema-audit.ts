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
