/**
 * Reproducing a report: its model's numbers are recomputed from the clustered and graded rows it
 * claims to come from, with the report's own scoring settings, and every stored number, grade,
 * class and sample is compared with the recomputed one, as are the manifest's hashes
 * (model/report-manifest.ts). Scoring is deterministic (every random draw is seeded), so an
 * untouched report matches (to 12 significant digits, RELATIVE_TOLERANCE); any difference is listed with where it is, what the report
 * says and what the rows give. Used by `semece verify` and Open report's "Verify against a sample file".
 *
 * Not compared: what a report may legitimately cut or add beside the rows (raw reply text, its
 * length note, a person's override flag, the dataset columns a run kept), and excluded questions'
 * reasons (they name files); excluded questions are compared by id.
 *
 * A grade a person overrode (the question's `overridden` flag) is a deliberate difference from
 * the rows, not an unexplained one: the rows are scored with the report's grade for that question,
 * so every number the override changed is checked as recomputed, and the override is listed apart
 * (the rows' grade, the report's). Its manifest hash may be of either grade: the run's manifest
 * is made when it is scored, before a person overrides a grade on the report page.
 */
import type { AuthorsRows, JoinedQuestion } from '../formats/authors-rows';
import type { ModelReport, ReportDocument, ReportQuestion, SignalName } from '../model/report';
import { gradeToY, type Grade } from '../model/rows';
import { questionHash, reportManifest, type ReportManifest } from '../model/report-manifest';
import { gradeOf, scoreAuthorsRows, scoreOptionsFor } from './score-stage';

export interface Difference {
  /** Where: "models[0].metrics.signals.sem1.ece", "models[0].questions[q7].grade", "manifest.questions[q7]". */
  where: string;
  expected: unknown;
  found: unknown;
}

/** A grade a person overrode: what the rows grade the question, what the report says. */
export interface GradeOverrideFound {
  id: string;
  rows: Grade;
  report: Grade;
}

const SKIPPED_KEYS = new Set(['raw', 'rawLength', 'overridden', 'fields']);
/** More differences than this are counted, not listed (a report of other rows differs everywhere). */
export const MAX_LISTED = 200;

const isMissingNumber = (v: unknown) => v === null || (typeof v === 'number' && Number.isNaN(v));

/**
 * Numbers agree to 12 significant digits: the same scorer on another JavaScript engine (a browser
 * against Node) can differ in the last bit of Math.log and Math.exp (entropy, exp(−H)), and those
 * bits travel into every metric of that signal. Anything a person or a different input changes is
 * far larger.
 */
export const RELATIVE_TOLERANCE = 1e-12;
const sameNumber = (a: number, b: number) => a === b || Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));

/** Every leaf of `expected` compared with the same path in `found`; pushes differences. */
function compare(expected: unknown, found: unknown, where: string, out: Difference[]): void {
  if (isMissingNumber(expected) && isMissingNumber(found)) return;
  if (typeof expected !== 'object' || expected === null) {
    const same = typeof expected === 'number' && typeof found === 'number' ? sameNumber(expected, found) : Object.is(expected, found);
    if (!same) out.push({ where, expected, found });
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(found) || found.length !== expected.length) {
      out.push({ where: `${where}.length`, expected: expected.length, found: Array.isArray(found) ? found.length : found });
      return;
    }
    expected.forEach((e, i) => compare(e, found[i], `${where}[${i}]`, out));
    return;
  }
  if (typeof found !== 'object' || found === null) {
    out.push({ where, expected: 'an object', found });
    return;
  }
  for (const [k, v] of Object.entries(expected as Record<string, unknown>)) {
    if (SKIPPED_KEYS.has(k) || v === undefined) continue;
    compare(v, (found as Record<string, unknown>)[k], `${where}.${k}`, out);
  }
}

/** The model's report recomputed from rows with the stored report's settings and signals. */
export function recomputeModel(stored: ReportDocument, model: ModelReport, rows: AuthorsRows): ModelReport {
  const signals = Object.keys(model.metrics.signals) as SignalName[];
  return scoreAuthorsRows(rows, { ...scoreOptionsFor(stored.settings), samples: 'raw', signals }, model.model);
}

/** The differences between a stored model report and the recomputed one. */
export function modelDifferences(stored: ModelReport, found: ModelReport, at: string): Difference[] {
  const out: Difference[] = [];
  compare(stored.metrics, found.metrics, `${at}.metrics`, out);
  const byId = new Map(found.questions.map((q) => [q.id, q]));
  for (const q of stored.questions) {
    const f = byId.get(q.id);
    if (!f) out.push({ where: `${at}.questions[${q.id}]`, expected: 'a scored question', found: 'no such scored row' });
    else compare(q, f, `${at}.questions[${q.id}]`, out);
  }
  const storedIds = new Set(stored.questions.map((q) => q.id));
  for (const q of found.questions) if (!storedIds.has(q.id)) out.push({ where: `${at}.questions[${q.id}]`, expected: 'no such question', found: 'a scored row' });
  compare(stored.excludedQuestions.map((x) => x.id), found.excludedQuestions.map((x) => x.id), `${at}.excludedQuestions`, out);
  return out;
}

/**
 * The model's overridden grades that differ from the rows' and the rows with the report's grades
 * in their place (Y with them); a question the rows lack or grade the same has nothing to list.
 */
export function withReportOverrides(model: ModelReport, rows: AuthorsRows): { rows: AuthorsRows; overrides: GradeOverrideFound[] } {
  const overridden = new Map(model.questions.filter((q) => q.overridden).map((q) => [q.id, q]));
  if (overridden.size === 0) return { rows, overrides: [] };
  const overrides: GradeOverrideFound[] = [];
  const questions = rows.questions.map((j): JoinedQuestion => {
    const q = overridden.get(j.clustered.id);
    const fromRows = gradeOf(j.graded.grade, j.graded.Y);
    if (!q || q.grade === fromRows) return j;
    overrides.push({ id: q.id, rows: fromRows, report: q.grade });
    return { ...j, graded: { ...j.graded, grade: q.grade, Y: gradeToY(q.grade) } };
  });
  return { rows: { ...rows, questions }, overrides };
}

/**
 * The manifest's hashes against those of the recomputed questions and the stored settings. An
 * overridden question's hash may instead be that of the rows' grade (`overrides`): the manifest
 * made before the person's override.
 */
export async function manifestDifferences(stored: ReportDocument, index: number, found: ModelReport, overrides: readonly GradeOverrideFound[] = []): Promise<Difference[]> {
  const m: ReportManifest | undefined = stored.manifest;
  if (!m) return [];
  const out: Difference[] = [];
  const again = await reportManifest({ settings: stored.settings, models: [found] });
  if (m.settings !== again.settings) out.push({ where: 'manifest.settings', expected: m.settings, found: again.settings });
  const hashes = m.models[index]?.questions ?? {};
  const recomputed = again.models[0].questions;
  const byId = new Map(found.questions.map((q) => [q.id, q]));
  const beforeOverride = async (id: string): Promise<string | undefined> => {
    const o = overrides.find((x) => x.id === id);
    const q = byId.get(id);
    return o && q ? questionHash({ ...q, grade: o.rows, correct: gradeToY(o.rows) } satisfies ReportQuestion) : undefined;
  };
  for (const [id, h] of Object.entries(hashes)) {
    if (recomputed[id] !== h && (await beforeOverride(id)) !== h) out.push({ where: `manifest.models[${index}].questions[${id}]`, expected: h, found: recomputed[id] ?? 'no such scored row' });
  }
  return out;
}

/** Which model of the report the rows are: the one named in the rows, or the only one. */
export function modelIndexFor(stored: ReportDocument, rows: AuthorsRows): number | string {
  if (stored.models.length === 1) return 0;
  const named = rows.questions[0]?.clustered.model;
  const i = stored.models.findIndex((m) => m.model === named);
  return i >= 0 ? i : `the rows' model "${named ?? '?'}" is none of the report's models (${stored.models.map((m) => m.model).join(', ')})`;
}

/** Every difference between the stored report and one recomputed from these rows (empty: all match). */
export async function verifyReport(
  stored: ReportDocument,
  rows: AuthorsRows,
): Promise<{ differences: Difference[]; overrides: GradeOverrideFound[]; model: string; checked: number } | { error: string }> {
  const index = modelIndexFor(stored, rows);
  if (typeof index === 'string') return { error: index };
  const model = stored.models[index];
  const { rows: asOverridden, overrides } = withReportOverrides(model, rows);
  const found = recomputeModel(stored, model, asOverridden);
  const at = `models[${index}]`;
  const differences = [...modelDifferences(model, found, at), ...(await manifestDifferences(stored, index, found, overrides))];
  return { differences, overrides, model: model.model, checked: model.questions.length };
}

/** One line per grade a person overrode, at most MAX_LISTED, then how many more. */
export function overrideLines(overrides: readonly GradeOverrideFound[]): string[] {
  const lines = overrides.slice(0, MAX_LISTED).map((o) => `question ${o.id}: graded ${o.rows} in the rows, overridden to ${o.report} in the report`);
  if (overrides.length > MAX_LISTED) lines.push(`… and ${overrides.length - MAX_LISTED} more overrides`);
  return lines;
}

/** One line per difference, at most MAX_LISTED, then how many more. */
export function differenceLines(differences: readonly Difference[]): string[] {
  const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' && Number.isNaN(v) ? 'NaN' : JSON.stringify(v) ?? String(v));
  const lines = differences.slice(0, MAX_LISTED).map((d) => `${d.where}: report has ${show(d.expected)}, the rows give ${show(d.found)}`);
  if (differences.length > MAX_LISTED) lines.push(`… and ${differences.length - MAX_LISTED} more differences`);
  return lines;
}
