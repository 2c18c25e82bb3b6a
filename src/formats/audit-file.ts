/**
 * The audit file (issue 30): JSONL, one line per audited question and person,
 *   {"id": "q1", "classes": [[0, 1, 3], [2]], "grade": "CORRECT", "by": "ana", "at": "2026-12-06T10:00:00Z"}
 * `classes` is the person's partition of the question's answer indices (0-based, in sampling
 * order), `grade` their grade of the modal answer, `model` optional where a report has several
 * models. Optionally, before them, a line per plan the questions were drawn by (audit-plan-line.ts:
 *   {"plan": {"by": "ana", "draw": "stratified", "seed": 3, "strata": "regime", "half_width": 0.1, "ids": ["q1", "q4"]}}
 * ), because the estimates assume the plan's random draw and a reader of the file should know it.
 * Files without plan lines (the first version) read as before. The file travels between browsers, people and the CLI, so the reader says what is wrong
 * with every bad line (line and field), not just the first, and refuses files far larger than an
 * audit can be (a person audits hundreds of questions, not millions).
 */
import type { Grade } from '../model/rows';
import { MAX_SAMPLES_PER_QUESTION } from '../model/scoring-limits';
import { describe } from './authors-fields';
import { withoutBom } from './jsonl-rows';
import { PlanProblem, readPlanLine, planLineObject, type AuditPlanLine } from './audit-plan-line';

export type { AuditPlanLine } from './audit-plan-line';

export type AuditGrade = Grade;
export const AUDIT_GRADES: readonly AuditGrade[] = Object.freeze(['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED']);

export interface AuditLine {
  id: string;
  /** The person's partition of the answer indices 0..n-1; every index exactly once. */
  classes: number[][];
  grade: AuditGrade;
  /** Who audited (a name or handle); lines of several people are kept apart by it. */
  by: string;
  /** When, ISO 8601. */
  at: string;
  /** The model whose answers were audited, where a report has several. */
  model?: string;
}

/** An audit is small; a file larger than this is not one (and would stall a page reading it). */
export const MAX_AUDIT_FILE_BYTES = 32 * 1024 * 1024;
export const MAX_AUDIT_LINES = 200_000;
/** Problems listed before the reader stops listing (a wrong file would otherwise list one per line). */
export const MAX_AUDIT_PROBLEMS = 20;

export interface AuditParseOptions {
  /** Named at the start of every problem (the CLI passes the path). */
  file?: string;
  /**
   * The number of answers the report has for a line's question, when known: `classes` must then
   * partition exactly 0..n-1. Undefined for a question the caller does not know (not an error here:
   * the caller decides whether an audit of an unknown question matters).
   */
  answersOf?: (line: AuditLine) => number | undefined;
  /**
   * The caller's own check of a well-formed line (the CLI: is the question among those scored?):
   * the field at fault and what is wrong, or null.
   */
  check?: (line: AuditLine) => { field: string; problem: string } | null;
}

/** `plans`: the file's plan lines, in file order (none in a file of the first version). */
export type AuditParse = { ok: true; lines: AuditLine[]; plans: AuditPlanLine[] } | { ok: false; problems: string[] };

/** The key that makes a line unique in a file: one line per question, model and person. */
export function auditKey(line: Pick<AuditLine, 'id' | 'model' | 'by'>): string {
  return JSON.stringify([line.id, line.model ?? null, line.by]);
}

/** The key of a question (and model) across people. */
export function auditQuestionKey(line: Pick<AuditLine, 'id' | 'model'>): string {
  return JSON.stringify([line.id, line.model ?? null]);
}

class LineProblem extends Error {}

function field(obj: Record<string, unknown>, key: string): unknown {
  if (!(key in obj) || obj[key] === undefined) throw new LineProblem(`field "${key}": missing`);
  return obj[key];
}

function nonEmptyString(obj: Record<string, unknown>, key: string): string {
  const v = field(obj, key);
  if (typeof v !== 'string' || v.length === 0) throw new LineProblem(`field "${key}": must be a non-empty string, got ${describe(v)}`);
  return v;
}

function readId(obj: Record<string, unknown>): string {
  const v = field(obj, 'id');
  // Ids may be integers in a dataset (the authors' rows allow both); they are compared as strings.
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string' && v.length > 0) return v;
  throw new LineProblem(`field "id": must be a non-empty string or an integer, got ${describe(v)}`);
}

function readGrade(obj: Record<string, unknown>): AuditGrade {
  const v = field(obj, 'grade');
  if (typeof v === 'string' && (AUDIT_GRADES as readonly string[]).includes(v)) return v as AuditGrade;
  throw new LineProblem(`field "grade": unknown grade ${describe(v)}; expected one of ${AUDIT_GRADES.join(', ')}`);
}

function readAt(obj: Record<string, unknown>): string {
  const v = nonEmptyString(obj, 'at');
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(Date.parse(v))) throw new LineProblem(`field "at": not an ISO 8601 date-time: ${describe(v)}`);
  return v;
}

/**
 * The partition's own checks: arrays of integers, no empty class, every index once, and the
 * indices exactly 0..count-1 (a partition of 0..n-1 holds n indices, so a gap means an answer
 * left out). `n`, when known, must be that count.
 */
export function partitionProblem(classes: unknown, n?: number): string | null {
  if (!Array.isArray(classes)) return `must be an array of classes (arrays of answer indices), got ${describe(classes)}`;
  if (classes.length === 0) return 'has no classes';
  const seen = new Map<number, number>();
  let count = 0;
  for (let c = 0; c < classes.length; c++) {
    const members: unknown = classes[c];
    if (!Array.isArray(members)) return `classes[${c}] must be an array of answer indices, got ${describe(members)}`;
    if (members.length === 0) return `classes[${c}] is empty`;
    for (let m = 0; m < members.length; m++) {
      const i: unknown = members[m];
      if (typeof i !== 'number' || !Number.isInteger(i) || i < 0) return `classes[${c}][${m}] must be a non-negative integer, got ${describe(i)}`;
      if (i >= MAX_SAMPLES_PER_QUESTION) return `classes[${c}][${m}] = ${i} is beyond the ${MAX_SAMPLES_PER_QUESTION} answers a question can have`;
      const earlier = seen.get(i);
      if (earlier !== undefined) return `answer ${i} is in classes[${earlier}] and classes[${c}]; each answer belongs to one class`;
      seen.set(i, c);
      count++;
    }
  }
  if (n !== undefined && count !== n) return `partitions ${count} answers but the question has ${n} (every index 0..${n - 1} exactly once)`;
  for (let i = 0; i < count; i++) {
    if (!seen.has(i)) return `answer ${i} is in no class (the classes must partition 0..${count - 1}${n === undefined ? '' : `, the question's ${n} answers`})`;
  }
  return null;
}

function readLine(obj: Record<string, unknown>): AuditLine {
  const id = readId(obj);
  const classes = field(obj, 'classes');
  const problem = partitionProblem(classes);
  if (problem !== null) throw new LineProblem(`field "classes": ${problem}`);
  const grade = readGrade(obj);
  const by = nonEmptyString(obj, 'by');
  const at = readAt(obj);
  const line: AuditLine = { id, classes: (classes as number[][]).map((c) => c.slice()), grade, by, at };
  if ('model' in obj && obj.model !== undefined) line.model = nonEmptyString(obj, 'model');
  return line;
}

/**
 * The audit file's lines, or every problem (up to MAX_AUDIT_PROBLEMS), each naming the file when
 * given, the 1-based line and the field: "audit.jsonl, line 3, field "grade": unknown grade …".
 * Blank lines are skipped; a byte order mark at the start is dropped; two lines for the same
 * question, model and person are a problem (naming both lines), since which one counts would
 * otherwise be a guess.
 */
export function parseAuditFile(text: string, options: AuditParseOptions = {}): AuditParse {
  const at = (line: number) => `${options.file === undefined ? '' : `${options.file}, `}line ${line}`;
  const whole = options.file === undefined ? 'the audit file' : options.file;
  // Length in UTF-16 units is at least a third of the UTF-8 bytes, so this bound is cheap and safe.
  if (text.length > MAX_AUDIT_FILE_BYTES) {
    return { ok: false, problems: [`${whole} is too large for an audit (${text.length} characters; at most ${MAX_AUDIT_FILE_BYTES} bytes)`] };
  }
  const body = withoutBom(text);
  const raw = body.split('\n');
  const nonBlank = raw.reduce((k, l) => k + (/\S/.test(l) ? 1 : 0), 0);
  if (nonBlank > MAX_AUDIT_LINES) {
    return { ok: false, problems: [`${whole} has ${nonBlank} lines; an audit has at most ${MAX_AUDIT_LINES}`] };
  }
  const lines: AuditLine[] = [];
  const plans: AuditPlanLine[] = [];
  const problems: string[] = [];
  const firstLineOf = new Map<string, number>();
  for (let k = 0; k < raw.length && problems.length < MAX_AUDIT_PROBLEMS; k++) {
    const text = raw[k]!;
    if (!/\S/.test(text)) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      problems.push(`${at(k + 1)}: malformed JSON (${(e as Error).message})`);
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`${at(k + 1)}: expected a JSON object, got ${describe(value)}`);
      continue;
    }
    if ('plan' in value) {
      try {
        plans.push(readPlanLine((value as Record<string, unknown>).plan));
      } catch (e) {
        if (!(e instanceof PlanProblem)) throw e;
        problems.push(`${at(k + 1)}, field "${e.field}": ${e.message}`);
      }
      continue;
    }
    let line: AuditLine;
    try {
      line = readLine(value as Record<string, unknown>);
    } catch (e) {
      if (!(e instanceof LineProblem)) throw e;
      problems.push(`${at(k + 1)}, ${e.message}`);
      continue;
    }
    const key = auditKey(line);
    const first = firstLineOf.get(key);
    if (first !== undefined) {
      problems.push(`${at(k + 1)}, field "id": duplicate id ${JSON.stringify(line.id)}${line.model === undefined ? '' : ` (model ${JSON.stringify(line.model)})`} by ${JSON.stringify(line.by)}, first on line ${first}`);
      continue;
    }
    const n = options.answersOf?.(line);
    if (n !== undefined) {
      const problem = partitionProblem(line.classes, n);
      if (problem !== null) {
        problems.push(`${at(k + 1)}, field "classes": ${problem}`);
        continue;
      }
    }
    const refused = options.check?.(line) ?? null;
    if (refused !== null) {
      problems.push(`${at(k + 1)}, field "${refused.field}": ${refused.problem}`);
      continue;
    }
    firstLineOf.set(key, k + 1);
    lines.push(line);
  }
  if (problems.length >= MAX_AUDIT_PROBLEMS) problems.push(`(${whole}: stopped listing after ${MAX_AUDIT_PROBLEMS} problems)`);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, lines, plans };
}

/**
 * The file's text: one JSON object a line, keys in the documented order, ending in a newline; the
 * plans (if any) first, so a reader meets how the questions were drawn before the questions.
 */
export function auditFileText(lines: readonly AuditLine[], plans: readonly AuditPlanLine[] = []): string {
  let out = '';
  for (const p of plans) out += JSON.stringify({ plan: planLineObject(p) }) + '\n';
  for (const l of lines) {
    const obj: Record<string, unknown> = { id: l.id, classes: l.classes, grade: l.grade, by: l.by, at: l.at };
    if (l.model !== undefined) obj.model = l.model;
    out += JSON.stringify(obj) + '\n';
  }
  return out;
}

/**
 * A partition written one way: members ascending, classes by size (largest first), ties by their
 * smallest member. Two people's equal partitions then compare equal as text.
 */
export function canonicalClasses(classes: readonly (readonly number[])[]): number[][] {
  return classes
    .map((c) => [...c].sort((a, b) => a - b))
    .sort((a, b) => b.length - a.length || a[0]! - b[0]!);
}

export interface MergedAudits {
  /** One line per question, model and person: a person's latest (`at`; on a tie, the later file's). */
  lines: AuditLine[];
  /** The people, in order of first appearance. */
  people: string[];
  /** Lines dropped because the same person audited the same question again later. */
  superseded: number;
}

/**
 * Several people's audits (or one person's from several browsers) as one: lines are kept per
 * person, so agreement between people (Krippendorff's α) can be computed; where the same person
 * audited a question twice, their latest line counts. Order: first appearance of each key.
 */
export function mergeAudits(files: readonly (readonly AuditLine[])[]): MergedAudits {
  const byKey = new Map<string, AuditLine>();
  const people: string[] = [];
  const seenPeople = new Set<string>();
  let superseded = 0;
  for (const file of files) {
    for (const line of file) {
      if (!seenPeople.has(line.by)) {
        seenPeople.add(line.by);
        people.push(line.by);
      }
      const key = auditKey(line);
      const earlier = byKey.get(key);
      if (earlier === undefined) {
        byKey.set(key, line);
        continue;
      }
      superseded++;
      // Map.set on an existing key keeps its first position, so order stays first appearance.
      if (Date.parse(line.at) >= Date.parse(earlier.at)) byKey.set(key, line);
    }
  }
  return { lines: [...byKey.values()], people, superseded };
}
