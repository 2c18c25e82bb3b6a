/**
 * The clusterer's class of each answer of every audited question, {model: {question id: class per
 * answer}}: what an attached audit needs once a document leaves its samples out (a share link at
 * rows detail carries it beside the rows; a report file too large for its samples keeps it in
 * `auditClasses`). From each question's samples, or else from the document's own `auditClasses`.
 */
import type { ReportDocument } from '../model/report';

type AuditClasses = NonNullable<ReportDocument['auditClasses']>;

/** Undefined without an audit, or when no audited question has samples or kept classes. */
export function auditClassesOf(doc: ReportDocument): AuditClasses | undefined {
  if (!doc.audit?.length) return undefined;
  const only = doc.models.length === 1 ? doc.models[0] : undefined;
  const out: AuditClasses = {};
  let any = false;
  for (const line of doc.audit) {
    const model = line.model === undefined ? only : doc.models.find((m) => m.model === line.model);
    const q = model?.questions.find((x) => x.id === line.id);
    if (!model || !q) continue;
    const cls = q.samples?.length ? q.samples.map((s) => s.cls) : doc.auditClasses?.[model.model]?.[q.id];
    if (!cls) continue;
    (out[model.model] ??= {})[q.id] = cls;
    any = true;
  }
  return any ? out : undefined;
}

