/**
 * Audits in progress (model/audit-repository.ts) over IndexedDB: one record per report, rewritten
 * whole at each edit (a few dozen questions of a few dozen answers: small), and checked on read,
 * so a corrupt record is a StoredRecordError naming what is wrong rather than a broken page.
 */
import type { AuditRecord, AuditRepository } from '../model/audit-repository';
import type { SemeceDatabase } from './db';
import { isRecord, StoredRecordError } from './stored-records';
import { storageWriteError } from './write-errors';

const GRADES = new Set(['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED']);

const isPartition = (v: unknown): v is number[][] =>
  Array.isArray(v) && v.every((c) => Array.isArray(c) && c.every((i) => Number.isInteger(i) && i >= 0));

/** What is wrong with a stored audit, or null when nothing is. */
export function auditRecordProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'it is not an object';
  if (typeof value.reportId !== 'string' || typeof value.person !== 'string') return 'its report id or person is missing';
  if (!Array.isArray(value.entries) || !Array.isArray(value.others)) return 'its questions are missing';
  for (const e of value.entries) {
    if (!isRecord(e) || typeof e.id !== 'string' || typeof e.model !== 'string' || !isPartition(e.classes)) return 'a question has no id, model or partition';
    if (e.grade !== null && !GRADES.has(e.grade as string)) return `question "${e.id}" has no valid grade`;
  }
  for (const l of value.others) {
    if (!isRecord(l) || typeof l.id !== 'string' || typeof l.by !== 'string' || !isPartition(l.classes) || !GRADES.has(l.grade as string)) return "another person's line is not an audit line";
  }
  const plan = value.plan;
  if (plan !== null && (!isRecord(plan) || !Array.isArray(plan.ids) || typeof plan.model !== 'string')) return 'its plan is not a plan';
  // Absent in audits stored before other people's plans were kept.
  if (value.otherPlans !== undefined) {
    if (!Array.isArray(value.otherPlans)) return "other people's plans are not a list";
    for (const p of value.otherPlans) {
      if (!isRecord(p) || typeof p.by !== 'string' || typeof p.draw !== 'string' || !Array.isArray(p.ids) || !p.ids.every((id) => typeof id === 'string')) return "another person's plan is not a plan";
    }
  }
  return null;
}

export class AuditStore implements AuditRepository {
  constructor(private readonly db: SemeceDatabase) {}

  async getAudit(reportId: string): Promise<AuditRecord | undefined> {
    const stored = await this.db.get('audits', reportId);
    if (stored === undefined) return undefined;
    const problem = auditRecordProblem(stored);
    if (problem) throw new StoredRecordError(`audits/${reportId}`, `The stored audit of report "${reportId}" cannot be read: ${problem}.`);
    return stored;
  }

  async saveAudit(record: AuditRecord): Promise<void> {
    try {
      await this.db.put('audits', record);
    } catch (e) {
      throw await storageWriteError(e, 'the audit');
    }
  }

  async deleteAudit(reportId: string): Promise<void> {
    await this.db.delete('audits', reportId);
  }
}
