/**
 * Where the Compare and Leaderboard pages take reports from: this browser's finished runs and
 * saved reports (read through the run worker, the one owner of IndexedDB) and report files (read
 * and checked in the import worker). Each comes back labelled for the tables.
 */
import type { ReportDocument } from '../../model/report';
import type { Result } from '../../model/rows';
import type { LabelledReport } from '../../workers/compare-api';
import { importClient } from '../../workers/import-client';
import { runClient, storageClient } from '../run-client';
import { errorText } from '../error-text';

/** A report stored in this browser that can be chosen. */
export interface StoredChoice {
  /** The saved report's id (a run's report id, or a saved report's). */
  id: string;
  title: string;
  models: string[];
  questions: number;
  from: 'run' | 'saved';
}

/** Finished runs and saved reports, newest runs first; an unreadable saved report is left out. */
export async function storedChoices(): Promise<Result<StoredChoice[]>> {
  const [runs, saved] = await Promise.all([runClient.listRuns(), storageClient.listSavedReports()]);
  if (!runs.ok) return runs;
  if (!saved.ok) return saved;
  const fromRuns: StoredChoice[] = runs.value.runs
    .filter((r) => r.status === 'done')
    .map((r) => ({ id: r.reportId ?? r.id, title: r.title, models: r.spec.models.map((m) => m.model), questions: r.questionCount, from: 'run' }));
  const fromSaved: StoredChoice[] = saved.value
    .filter((s) => !s.problem)
    .map((s) => ({ id: s.id, title: s.title, models: s.models, questions: s.questions, from: 'saved' }));
  return { ok: true, value: [...fromRuns, ...fromSaved] };
}

/** A stored report, labelled with its title. */
export async function loadStored(choice: Pick<StoredChoice, 'id' | 'title'>): Promise<Result<LabelledReport>> {
  const got = await storageClient.getReport(choice.id);
  if (!got.ok) return got;
  if (!got.value) return { ok: false, error: { kind: 'not-found', message: `The report “${choice.title}” is no longer saved in this browser.` } };
  return { ok: true, value: { source: choice.title, document: got.value } };
}

/** A report file, read and checked in the import worker, labelled with its name. */
export async function loadFile(file: File): Promise<Result<LabelledReport>> {
  let opened: Result<ReportDocument>;
  try {
    opened = await importClient.openReportFile(file);
  } catch (err) {
    opened = { ok: false, error: { kind: 'report-import', message: `${file.name}: the file could not be opened: ${errorText(err)}` } };
  }
  return opened.ok ? { ok: true, value: { source: file.name, document: opened.value } } : opened;
}

/** The ids a link preselects: `#/compare?ids=a,b` (as the Runs list's "Compare selected" writes it). */
export function idsFromHash(hash: string): string[] {
  const query = hash.split('?')[1] ?? '';
  const raw = new URLSearchParams(query).get('ids') ?? '';
  return raw.split(',').map((s) => s.trim()).filter(Boolean).slice(0, 50);
}

export function compareHref(ids: readonly string[], page: 'compare' | 'leaderboard' = 'compare'): string {
  return `#/${page}?ids=${ids.map(encodeURIComponent).join(',')}`;
}
