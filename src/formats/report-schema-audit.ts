/**
 * The report schema's part for the audit lines a report may carry (issue 30): each line read as
 * the audit file's reader reads it (formats/audit-file.ts), its partition checked the same way.
 */
import { z } from 'zod';
import { MAX_SAMPLES_PER_QUESTION } from '../model/scoring-limits';
import { AUDIT_GRADES, partitionProblem } from './audit-file';
import { count, expect, list, text } from './report-schema-fields';

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
