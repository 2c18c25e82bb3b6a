/**
 * What an attached audit needs from the samples, carried beside a share link's rows (issue 30).
 * A link at "rows" detail leaves every question's samples out to stay short, but the audit's
 * statistics (κ, the partition agreement, the ECE shift, the report recomputed) need only the
 * clusterer's class of each answer of the audited questions: their partitions are compared with
 * the person's. So those classes travel in the link's envelope: a few integers per audited
 * question, {model: {question id: class per answer, in sampling order}}, the shape the audit
 * summary's `assignments` take (workers/recompute-api.ts). Read back, they are checked against the
 * report like everything else in a link: only the audited questions, one class per answer.
 * A kept copy of such a link holds them in the document itself (`auditClasses`, checked by the
 * report schema), so the copy's audit, and a link or file made from it, keep them too.
 */
import type { ReportDocument } from '../model/report';
import { auditClassesMismatch, type AuditClasses } from '../formats/report-schema-audit';

export type { AuditClasses };
export { auditClassesOf } from '../formats/audit-classes-of';

/** What is wrong with a link's audit classes for its report, or null (a link is never trusted). */
export function auditClassesProblem(value: unknown, report: ReportDocument): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'they are not an object';
  for (const [model, byId] of Object.entries(value)) {
    if (typeof byId !== 'object' || byId === null || Array.isArray(byId)) return `those of ${JSON.stringify(model)} are not an object`;
    for (const [id, cls] of Object.entries(byId as Record<string, unknown>)) {
      if (!Array.isArray(cls)) return `question ${JSON.stringify(id)} has no list of classes`;
      if (!cls.every((c) => Number.isInteger(c) && c >= 0)) return `question ${JSON.stringify(id)} has a class that is not a whole number`;
    }
  }
  const wrong = auditClassesMismatch(value as AuditClasses, report, { auditedOnly: true });
  return wrong && (wrong.names ? `they name ${wrong.problem}` : wrong.problem);
}
