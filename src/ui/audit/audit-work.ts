/**
 * The person's audit as the page holds it, and the audit file's lines in and out: entries become
 * lines once their grade is marked; an imported file's lines by the person become (or replace,
 * when newer) their entries, and other people's are kept beside them for the agreement between
 * people. Pure, so the page, its tests and a reload all see the same rules.
 */
import { canonicalClasses, mergeAudits, type AuditLine } from '../../formats/audit-file';
import type { AuditEntry, AuditLineRecord, AuditRecord } from '../../model/audit-repository';
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
export function importLines(record: AuditRecord, lines: readonly AuditLine[], doc: Pick<ReportDocument, 'models'>, now: string): ImportOutcome {
  const people = [...new Set(lines.map((l) => l.by))];
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
  return { record: { ...next, others: merged, updatedAt: now }, own, others: theirs.length, people };
}
