/**
 * The person's audit as the page holds it, and the audit file's lines in and out: entries become
 * lines once their grade is marked; an imported file's lines by the person become (or replace,
 * when newer) their entries, and other people's are kept beside them for the agreement between
 * people. Pure, so the page, its tests and a reload all see the same rules.
 */
import { canonicalClasses, mergeAudits, type AuditLine } from '../../formats/audit-file';
import { drawKey, mergePlans, type AuditPlanLine, type MergedPlans } from '../../formats/audit-plan-line';
import type { AuditEntry, AuditLineRecord, AuditPlan, AuditRecord } from '../../model/audit-repository';
import type { ReportDocument } from '../../model/report';

/** A new, empty audit of a report. */
export const emptyAudit = (reportId: string, person: string, now: string): AuditRecord => ({ reportId, person, plan: null, entries: [], others: [], updatedAt: now });

/** The lines of the person's marked questions (`model` named where the report has several models). */
export function personLines(record: AuditRecord, doc: Pick<ReportDocument, 'models'>): AuditLine[] {
  const several = doc.models.length > 1;
  return record.entries
    .filter((e): e is AuditEntry & { grade: NonNullable<AuditEntry['grade']> } => e.grade !== null)
    .map((e) => {
      const line: AuditLine = { id: e.id, classes: canonicalClasses(e.classes), grade: e.grade, by: record.person, at: e.at };
      if (several) line.model = e.model;
      return line;
    });
}

/**
 * The person's plan as the file's plan line: `all` when it takes every question of its model,
 * `model` named where the report has several models (as on the lines).
 */
export function planLine(record: AuditRecord, doc: Pick<ReportDocument, 'models'>): AuditPlanLine | null {
  const plan = record.plan;
  if (!plan) return null;
  const count = doc.models.find((m) => m.model === plan.model)?.questions.length;
  const draw = count !== undefined && plan.ids.length >= count ? 'all' : plan.stratifyBy !== null ? 'stratified' : 'plain';
  const line: AuditPlanLine = { by: record.person, draw, seed: plan.seed, ids: plan.ids.slice() };
  if (doc.models.length > 1) line.model = plan.model;
  if (draw === 'stratified') line.strata = plan.stratifyBy!;
  if (plan.halfWidth !== undefined) line.halfWidth = plan.halfWidth;
  return line;
}

/** A plan line as the page's plan (a file's, taken up in another browser). */
export function planOfLine(line: AuditPlanLine, doc: Pick<ReportDocument, 'models'>): AuditPlan {
  const plan: AuditPlan = { model: line.model ?? doc.models[0]?.model ?? '', k: line.ids.length, seed: line.seed, stratifyBy: line.draw === 'stratified' ? line.strata ?? null : null, ids: line.ids.slice() };
  if (line.halfWidth !== undefined) plan.halfWidth = line.halfWidth;
  return plan;
}

/** Every plan the audit holds, the person's first, each distinct one once, and whether they differ. */
export function allPlans(record: AuditRecord, doc: Pick<ReportDocument, 'models'>): MergedPlans {
  const own = planLine(record, doc);
  return mergePlans([own ? [own] : [], record.otherPlans ?? []]);
}

/** Every line the audit holds: the person's and the other people's. */
export const allLines = (record: AuditRecord, doc: Pick<ReportDocument, 'models'>): AuditLine[] => [...personLines(record, doc), ...record.others];

/** The audit with an entry put in place of the one for the same question and model (or added). */
export function withEntry(record: AuditRecord, entry: AuditEntry, now: string): AuditRecord {
  const at = record.entries.findIndex((e) => e.id === entry.id && e.model === entry.model);
  const entries = at < 0 ? [...record.entries, entry] : record.entries.map((e, i) => (i === at ? entry : e));
  return { ...record, entries, updatedAt: now };
}

export interface ImportOutcome {
  record: AuditRecord;
  /** Lines taken as the person's own, and lines kept as other people's. */
  own: number;
  others: number;
  people: string[];
}

/**
 * The audit after importing a file's lines. An audit with no work of its own that imports one
 * person's file takes that person's name (the same person, in another browser); otherwise lines by
 * the person replace their entries where newer, and everyone else's are merged into `others`
 * (one line per question and person, the latest).
 */
export function importLines(record: AuditRecord, lines: readonly AuditLine[], doc: Pick<ReportDocument, 'models'>, now: string, plans: readonly AuditPlanLine[] = []): ImportOutcome {
  const people = [...new Set([...lines.map((l) => l.by), ...plans.map((p) => p.by)])];
  const person = record.entries.length === 0 && people.length === 1 ? people[0] : record.person;
  const modelOf = (l: AuditLineRecord) => l.model ?? doc.models[0]?.model ?? '';
  let next: AuditRecord = { ...record, person };
  let own = 0;
  for (const l of lines) {
    if (l.by !== person) continue;
    const existing = next.entries.find((e) => e.id === l.id && e.model === modelOf(l));
    if (existing && existing.grade !== null && Date.parse(existing.at) > Date.parse(l.at)) continue;
    next = withEntry(next, { id: l.id, model: modelOf(l), classes: canonicalClasses(l.classes), grade: l.grade, at: l.at }, now);
    own++;
  }
  const theirs = lines.filter((l) => l.by !== person);
  const merged = mergeAudits([next.others, theirs]).lines;
  // The person's own plan from another browser becomes the plan when there is none yet (so the
  // same list of questions goes on there); any other plan, theirs or another of the person's, is
  // kept beside it, and the file written later names them all.
  let plan = next.plan;
  const kept: AuditPlanLine[] = [];
  for (const p of plans) {
    if (p.by === person && plan === null) plan = planOfLine(p, doc);
    else kept.push(p);
  }
  const ownKey = plan ? drawKey(planLine({ ...next, plan }, doc)!) : null;
  const otherPlans = mergePlans([next.otherPlans ?? [], kept.filter((p) => !(p.by === person && drawKey(p) === ownKey))]).plans;
  const record2: AuditRecord = { ...next, plan, others: merged, updatedAt: now };
  if (otherPlans.length > 0) record2.otherPlans = otherPlans;
  return { record: record2, own, others: theirs.length, people };
}
