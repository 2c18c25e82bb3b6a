/**
 * What an attached audit needs from the samples, carried beside a share link's rows (issue 30).
 * A link at "rows" detail leaves every question's samples out to stay short, but the audit's
 * statistics (κ, the partition agreement, the ECE shift, the report recomputed) need only the
 * clusterer's class of each answer of the audited questions: their partitions are compared with
 * the person's. So those classes travel in the link's envelope: a few integers per audited
 * question, {model: {question id: class per answer, in sampling order}}, the shape the audit
 * summary's `assignments` take (workers/recompute-api.ts). Read back, they are checked against the
 * report like everything else in a link: only the audited questions, one class per answer.
 */
import type { ReportDocument } from '../model/report';

export type AuditClasses = Record<string, Record<string, number[]>>;

/** The classes of every audited question whose samples the report keeps; undefined without an audit. */
export function auditClassesOf(doc: ReportDocument): AuditClasses | undefined {
  if (!doc.audit?.length) return undefined;
  const only = doc.models.length === 1 ? doc.models[0] : undefined;
  const out: AuditClasses = {};
  let any = false;
  for (const line of doc.audit) {
    const model = line.model === undefined ? only : doc.models.find((m) => m.model === line.model);
    const q = model?.questions.find((x) => x.id === line.id);
    if (!model || !q?.samples?.length) continue;
    (out[model.model] ??= {})[q.id] = q.samples.map((s) => s.cls);
    any = true;
  }
  return any ? out : undefined;
}

/** What is wrong with a link's audit classes for its report, or null (a link is never trusted). */
export function auditClassesProblem(value: unknown, report: ReportDocument): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'they are not an object';
  const audited = new Set((report.audit ?? []).map((l) => JSON.stringify([l.model ?? (report.models.length === 1 ? report.models[0]?.model : null), l.id])));
  for (const [model, byId] of Object.entries(value)) {
    const m = report.models.find((x) => x.model === model);
    if (!m) return `they name a model the report does not have (${JSON.stringify(model)})`;
    if (typeof byId !== 'object' || byId === null || Array.isArray(byId)) return `those of ${JSON.stringify(model)} are not an object`;
    for (const [id, cls] of Object.entries(byId as Record<string, unknown>)) {
      if (!audited.has(JSON.stringify([model, id]))) return `they name a question the audit does not (${JSON.stringify(id)})`;
      const q = m.questions.find((x) => x.id === id);
      if (!q) return `they name a question the report does not have (${JSON.stringify(id)})`;
      if (!Array.isArray(cls) || cls.length !== q.n) return `question ${JSON.stringify(id)} needs a class for each of its ${q.n} answers`;
      if (!cls.every((c) => Number.isInteger(c) && c >= 0 && c < q.n)) return `question ${JSON.stringify(id)} has a class that is not a whole number from 0 to ${q.n - 1}`;
    }
  }
  return null;
}
