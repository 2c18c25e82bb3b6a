/**
 * A person's audit of one report as this browser keeps it while it is made (issue 30): the plan
 * (which questions, drawn how), each audited question's partition of its answers and grade of its
 * modal answer, and the audits of other people imported beside it. The browser's store implements
 * the port over IndexedDB (store/audits.ts); the page reaches it through the run worker's storage
 * API. The shapes of a line are the audit file's (formats/audit-file.ts), written out here because
 * the domain floor imports nothing above it.
 */
import type { Grade } from './rows';

/** One audited question, as a line of the audit file. */
export interface AuditLineRecord {
  id: string;
  /** The person's partition of the answer indices, 0-based in sampling order. */
  classes: number[][];
  grade: Grade;
  by: string;
  at: string;
  /** The report's model, when it has several. */
  model?: string;
}

/** How another person's (or an earlier) audit drew its questions: the audit file's plan line (formats/audit-plan-line.ts). */
export interface AuditPlanLineRecord {
  by: string;
  model?: string;
  draw: 'plain' | 'stratified' | 'all';
  seed: number;
  strata?: string;
  halfWidth?: number;
  ids: string[];
}

/** A question in the person's work: its line once the grade is marked, its partition before. */
export interface AuditEntry {
  id: string;
  model: string;
  classes: number[][];
  /** Null until the person marks the modal answer's grade: the question is audited once marked. */
  grade: Grade | null;
  at: string;
}

/** How the audited questions were chosen. */
export interface AuditPlan {
  model: string;
  /** Questions asked for; the whole model when it is at least its question count. */
  k: number;
  seed: number;
  /** 'regime', a question field's name, or null (a plain draw). */
  stratifyBy: string | null;
  /** The drawn questions, in the order they are audited. */
  ids: string[];
  /** The 95 % interval half-width the person sized the plan for (absent in audits begun before it was kept). */
  halfWidth?: number;
}

export interface AuditRecord {
  reportId: string;
  /** The name the person's lines carry in `by`. */
  person: string;
  plan: AuditPlan | null;
  entries: AuditEntry[];
  /** Lines imported from other people (their `by` differs from `person`), kept for the agreement between people. */
  others: AuditLineRecord[];
  /** Plans imported with other people's files (or the person's own from elsewhere, when they differ from `plan`); absent before plans were kept. */
  otherPlans?: AuditPlanLineRecord[];
  updatedAt: string;
}

export interface AuditRepository {
  getAudit(reportId: string): Promise<AuditRecord | undefined>;
  saveAudit(record: AuditRecord): Promise<void>;
  deleteAudit(reportId: string): Promise<void>;
}
