/**
 * Run records, their report documents and grade overrides. Every record is passed through
 * `sanitizeRun` (model/run-repository.ts) before it is written, so no API key can reach storage even if a caller hands one
 * over by mistake; every record read back is upgraded and validated (run-records.ts,
 * report-records.ts), so a corrupt one is a StoredRecordError naming what is wrong.
 */
import { storageWriteError } from './write-errors';
import type { ReportDocument } from '../model/report';
import { fitReportLimits } from '../formats/report-limits';
import type { RunRecord } from '../model/run-spec';
import { sanitizeRun, type RunRepository } from '../model/run-repository';
import type { Grade, Question } from '../model/rows';
import type { SemeceDatabase } from './db';
import { readStoredReport, storedReportSummary, type SavedReportSummary } from './report-records';
import { questionsApart, readStoredRun, toStoredRun } from './run-records';
import type { StoredGradeOverride } from './schema';
import { StoredRecordError } from './stored-records';

/** A stored record that could not be read, by its key, and why. */
export interface UnreadableRecord {
  id: string;
  message: string;
}

const GRADES: readonly Grade[] = ['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED'];

/** The run repository (model/run-repository.ts) over IndexedDB, with what the pages need besides. */
export class RunStore implements RunRepository {
  /**
   * The questions list this store last wrote (or read) for each run. A run's questions never
   * change once it is stored, so a save that carries the same list writes the record alone:
   * the runner's checkpoint every second no longer rewrites every question (issue 16).
   */
  private readonly storedQuestions = new Map<string, readonly Question[]>();

  constructor(private readonly db: SemeceDatabase) {}

  async saveRun(run: RunRecord): Promise<void> {
    try {
      const clean = sanitizeRun(run);
      const questions = clean.spec.dataset.questions;
      const record = toStoredRun(clean);
      if (this.storedQuestions.get(run.id) === questions) {
        await this.db.put('runs', record);
        return;
      }
      // The first save (or a new list): record and questions in one transaction, never one without the other.
      const tx = this.db.transaction(['runs', 'runQuestions'], 'readwrite');
      void tx.objectStore('runs').put(record);
      void tx.objectStore('runQuestions').put({ runId: run.id, questions });
      await tx.done;
      this.storedQuestions.set(run.id, questions);
    } catch (e) {
      throw await storageWriteError(e, "the run's progress");
    }
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const tx = this.db.transaction(['runs', 'runQuestions'], 'readonly');
    const [stored, apart] = await Promise.all([tx.objectStore('runs').get(id), tx.objectStore('runQuestions').get(id)]);
    await tx.done;
    if (stored === undefined) return undefined;
    const run = readStoredRun(id, stored, apart);
    // Questions read from their own record are stored already; a version-1 record's inline ones are not, so its next save moves them apart.
    if (questionsApart(stored)) this.storedQuestions.set(id, run.spec.dataset.questions);
    return run;
  }

  /** Newest first; a record that cannot be read is listed apart, with why, so it can be deleted. */
  async listRuns(): Promise<{ runs: RunRecord[]; unreadable: UnreadableRecord[] }> {
    const runs: RunRecord[] = [];
    const unreadable: UnreadableRecord[] = [];
    const tx = this.db.transaction(['runs', 'runQuestions'], 'readonly');
    const questions = tx.objectStore('runQuestions');
    let cursor = await tx.objectStore('runs').index('byCreated').openCursor(null, 'prev');
    while (cursor) {
      const id = String(cursor.primaryKey);
      try {
        runs.push(readStoredRun(id, cursor.value, questionsApart(cursor.value) ? await questions.get(id) : undefined));
      } catch (e) {
        if (!(e instanceof StoredRecordError)) throw e;
        unreadable.push({ id, message: e.message });
      }
      cursor = await cursor.continue();
    }
    await tx.done;
    return { runs, unreadable };
  }

  /**
   * Deletes a run, its questions, its report, its overrides and its record of batches still with a
   * provider (nothing could collect them without the run). Samples stay: other runs may share them.
   */
  async deleteRun(id: string): Promise<void> {
    const tx = this.db.transaction(['runs', 'runQuestions', 'reports', 'gradeOverrides', 'pendingBatches'], 'readwrite');
    void tx.objectStore('runs').delete(id);
    void tx.objectStore('runQuestions').delete(id);
    void tx.objectStore('reports').delete(id);
    const overrides = tx.objectStore('gradeOverrides');
    for (const key of await overrides.index('byRun').getAllKeys(id)) void overrides.delete(key);
    const pending = tx.objectStore('pendingBatches');
    for (const key of await pending.index('byRun').getAllKeys(id)) void pending.delete(key);
    await tx.done;
    this.storedQuestions.delete(id);
  }

  /** Cut to the limits it is read back with (report-limits.ts), so a saved report always opens again. */
  async saveReport(runId: string, document: ReportDocument): Promise<void> {
    try {
      await this.db.put('reports', { runId, document: fitReportLimits(document), savedAt: new Date().toISOString() });
    } catch (e) {
      throw await storageWriteError(e, 'the report');
    }
  }

  async getReport(runId: string): Promise<ReportDocument | undefined> {
    const stored = await this.db.get('reports', runId);
    return stored === undefined ? undefined : readStoredReport(runId, stored);
  }

  /**
   * Saved reports that no run record owns (kept copies of shared links, saved imported files),
   * newest first. Reports are read one at a time, so a list of large reports is never all in memory.
   */
  async listReportsWithoutRun(): Promise<SavedReportSummary[]> {
    const runIds = new Set(await this.db.getAllKeys('runs'));
    const out: SavedReportSummary[] = [];
    for (const id of await this.db.getAllKeys('reports')) {
      if (runIds.has(id)) continue;
      const stored = await this.db.get('reports', id);
      if (stored) out.push(storedReportSummary(id, stored));
    }
    return out.sort((a, b) => (a.savedAt < b.savedAt ? 1 : a.savedAt > b.savedAt ? -1 : 0));
  }

  /** Deletes a saved report and its grade overrides; a run record of the same id is left alone. */
  async deleteReport(id: string): Promise<void> {
    const tx = this.db.transaction(['reports', 'gradeOverrides'], 'readwrite');
    void tx.objectStore('reports').delete(id);
    const overrides = tx.objectStore('gradeOverrides');
    for (const key of await overrides.index('byRun').getAllKeys(id)) void overrides.delete(key);
    await tx.done;
  }

  async setGradeOverride(override: Omit<StoredGradeOverride, 'at'>): Promise<void> {
    await this.db.put('gradeOverrides', { ...override, at: new Date().toISOString() });
  }

  async clearGradeOverride(runId: string, model: string, questionId: string): Promise<void> {
    await this.db.delete('gradeOverrides', [runId, model, questionId]);
  }

  /** Overrides of one run as a lookup `model → questionId → grade`. */
  async gradeOverrides(runId: string): Promise<Map<string, Map<string, Grade>>> {
    const out = new Map<string, Map<string, Grade>>();
    for (const o of await this.db.getAllFromIndex('gradeOverrides', 'byRun', runId)) {
      if (!GRADES.includes(o.grade)) {
        throw new StoredRecordError(`gradeOverrides/${runId}`, `A stored grade override of run "${runId}" (question "${o.questionId}") has no valid grade.`);
      }
      if (!out.has(o.model)) out.set(o.model, new Map());
      out.get(o.model)!.set(o.questionId, o.grade);
    }
    return out;
  }
}
