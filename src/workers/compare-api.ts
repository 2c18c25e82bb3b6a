/**
 * Comparisons of reports for the Compare and Leaderboard pages (issue 28), run in the import
 * worker: a paired bootstrap over every pair × signal × metric of two 10,000-question reports is
 * seconds of work that would hold the page. Plain functions over pipeline/report-comparison.ts and
 * pipeline/leaderboard.ts, the same code `semece compare` runs; import-api.ts serves them and
 * tests call them directly.
 */
import type { ReportDocument } from '../model/report';
import type { Result } from '../model/rows';
import type { SignalName } from '../model/signals';
import { compareEntries } from '../pipeline/report-alignment';
import { compareReports, type ReportComparison } from '../pipeline/report-comparison';
import { leaderboard, type Leaderboard } from '../pipeline/leaderboard';

export interface LabelledReport {
  /** What the page calls it: a file name, a run's or a saved report's title. */
  source: string;
  document: ReportDocument;
}

export interface CompareOptions {
  B?: number;
  seed?: number;
}

function tooFew(what: string, count: number): Result<never> {
  return { ok: false, error: { kind: 'bad-input', message: `${what} needs at least two models; the reports chosen hold ${count}.` } };
}

/** Every pair of the reports' models (each model of each report is one entry) compared. */
export function compareDocuments(reports: readonly LabelledReport[], options: CompareOptions = {}): Result<ReportComparison> {
  const entries = compareEntries(reports);
  if (entries.length < 2) return tooFew('A comparison', entries.length);
  return { ok: true, value: compareReports(entries, options) };
}

/** The reports' models ranked by one signal's ECE. */
export function leaderboardOf(reports: readonly LabelledReport[], signal: SignalName, options: CompareOptions = {}): Result<Leaderboard> {
  const entries = compareEntries(reports);
  if (entries.length < 2) return tooFew('A leaderboard', entries.length);
  return { ok: true, value: leaderboard(entries, signal, options) };
}
