/**
 * `semece score --audit AUDIT.jsonl`: the audit file read and checked against the scored
 * questions, and its summary (src/pipeline/audit-summary.ts) as the document's `audit` member
 * (src/pipeline/audit-documents.ts). Every problem of the file is said with the file, the line and
 * the field (src/formats/audit-file.ts); a question the rows did not score, a model the rows are
 * not, or a partition of another number of answers than the question has are problems of the file
 * too, so a script gets exit code 2 as for any bad input. The file's plans (how its questions were
 * drawn) are printed under `plans`, their strata used when they are one stratified draw, a mismatch
 * of draws said in `plan_mismatch`; with `--by`, the audit per slice under `slices`, as the report's.
 */
import { stat, readFile } from 'node:fs/promises';
import { MAX_AUDIT_FILE_BYTES, parseAuditFile, type AuditLine } from '../src/formats/audit-file.ts';
import { mergePlans, planLineObject, type AuditPlanLine } from '../src/formats/audit-plan-line.ts';
import { auditStratum, planStrata } from '../src/pipeline/audit-plan.ts';
import type { JoinedQuestion } from '../src/formats/authors-rows.ts';
import type { ModelReport } from '../src/model/report.ts';
import { auditCliDocument } from '../src/pipeline/audit-documents.ts';
import { auditSummary } from '../src/pipeline/audit-summary.ts';
import type { ScoreOptions } from '../src/pipeline/score-stage.ts';

export interface AuditMemberOk {
  ok: true;
  audit: ReturnType<typeof auditCliDocument> & { plans?: Record<string, unknown>[]; plan_mismatch?: string };
  lines: AuditLine[];
  plans: AuditPlanLine[];
}
export type AuditMember = AuditMemberOk | { ok: false; problems: string[] };

/** The file's text, or why it cannot be read (named as the other inputs are). */
async function auditText(file: string): Promise<{ ok: true; text: string } | { ok: false; problem: string }> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) return { ok: false, problem: `cannot read --audit ${file}: it is a directory` };
    // Refused before reading: an audit is small, and a wrong file could be any size.
    if (info.size > MAX_AUDIT_FILE_BYTES) return { ok: false, problem: `--audit ${file} is too large for an audit (${info.size} bytes; at most ${MAX_AUDIT_FILE_BYTES})` };
    return { ok: true, text: await readFile(file, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, problem: `cannot read --audit ${file}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}` };
  }
}

/**
 * The `audit` member for the scored report, or the problems. `rows` are the joined rows the
 * report was scored from (their classes per answer: the printed report keeps no samples); `sliceBy`
 * is `--by`'s column.
 */
export async function auditMember(
  file: string,
  report: ModelReport,
  rows: readonly JoinedQuestion[],
  excluded: readonly { id: string; reason: string }[],
  options: ScoreOptions,
  sliceBy?: string,
): Promise<AuditMember> {
  const read = await auditText(file);
  if (!read.ok) return { ok: false, problems: [read.problem] };
  const byId = new Map(report.questions.map((q) => [q.id, q]));
  const excludedWhy = new Map(excluded.map((x) => [x.id, x.reason]));
  const parsed = parseAuditFile(read.text, {
    file,
    answersOf: (line) => byId.get(line.id)?.n,
    check: (line) => {
      if (line.model !== undefined && line.model !== report.model) return { field: 'model', problem: `${JSON.stringify(line.model)} is not the model scored (${JSON.stringify(report.model)})` };
      if (byId.has(line.id)) return null;
      const why = excludedWhy.get(line.id);
      return { field: 'id', problem: why !== undefined ? `question ${JSON.stringify(line.id)} was excluded from scoring (${why})` : `no scored question has id ${JSON.stringify(line.id)}` };
    },
  });
  if (!parsed.ok) return parsed;
  if (parsed.lines.length === 0) return { ok: false, problems: [`--audit ${file} has no audited question`] };
  const assignments = new Map(rows.map((r) => [r.clustered.id, r.clustered.cluster_assignments]));
  const plans = mergePlans([parsed.plans.filter((p) => p.model === undefined || p.model === report.model)]);
  const strata = auditStratum(planStrata(plans.plans, report.model));
  const summary = auditSummary(report, parsed.lines, {
    scoring: options,
    assignmentsOf: (q) => assignments.get(q.id),
    ...(strata ? { strata } : {}),
    ...(sliceBy !== undefined ? { sliceBy } : {}),
  });
  const audit = {
    ...auditCliDocument(summary),
    ...(plans.plans.length > 0 ? { plans: plans.plans.map(planLineObject) } : {}),
    ...(plans.mismatch ? { plan_mismatch: plans.mismatch } : {}),
  };
  return { ok: true, audit, lines: parsed.lines, plans: plans.plans };
}
