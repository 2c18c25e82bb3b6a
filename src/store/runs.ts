/**
 * Run records, their datasets, their report documents and grade overrides. Every record is
 * passed through `sanitizeRun` before it is written, so no API key can reach storage even if a
 * caller hands one over by mistake.
 */
import type { ReportDocument } from '../model/report';
import { withoutKey, type RunRecord } from '../model/run-spec';
import type { Dataset, Grade } from '../model/rows';
import { canonicalJson } from '../model/sample-cache';
import type { SemeceDatabase } from './db';
import type { StoredDataset, StoredGradeOverride } from './schema';
import { sha256Hex } from '../model/hash';

/** A copy of a run record with every model spec stripped of any `apiKey` field. */
export function sanitizeRun(run: RunRecord): RunRecord {
  const spec = run.spec;
  const clustering = spec.clustering.method === 'judge' ? { ...spec.clustering, judge: withoutKey(spec.clustering.judge) } : spec.clustering;
  const grading = spec.grading.method === 'judge' ? { ...spec.grading, judge: withoutKey(spec.grading.judge) } : spec.grading;
  return { ...run, spec: { ...spec, models: spec.models.map((m) => withoutKey(m)), clustering, grading } };
}

/** What a list of saved reports shows, without the report's rows. */
export interface SavedReportSummary {
  id: string;
  title: string;
  savedAt: string;
  models: string[];
  questions: number;
  demo: boolean;
}

export class RunStore {
  constructor(private readonly db: SemeceDatabase) {}

  async saveRun(run: RunRecord): Promise<void> {
    await this.db.put('runs', sanitizeRun(run));
  }

  getRun(id: string): Promise<RunRecord | undefined> {
    return this.db.get('runs', id);
  }

  /** Newest first. */
  async listRuns(): Promise<RunRecord[]> {
    const runs = await this.db.getAllFromIndex('runs', 'byCreated');
    return runs.reverse();
  }

  /** Deletes a run, its report and its overrides. Samples stay: other runs may share them. */
  async deleteRun(id: string): Promise<void> {
    const tx = this.db.transaction(['runs', 'reports', 'gradeOverrides'], 'readwrite');
    void tx.objectStore('runs').delete(id);
    void tx.objectStore('reports').delete(id);
    const overrides = tx.objectStore('gradeOverrides');
    for (const key of await overrides.index('byRun').getAllKeys(id)) void overrides.delete(key);
    await tx.done;
  }

  async saveReport(runId: string, document: ReportDocument): Promise<void> {
    await this.db.put('reports', { runId, document, savedAt: new Date().toISOString() });
  }

  async getReport(runId: string): Promise<ReportDocument | undefined> {
    return (await this.db.get('reports', runId))?.document;
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
      if (!stored) continue;
      const doc = stored.document;
      out.push({ id, title: doc.title, savedAt: stored.savedAt, models: doc.models.map((m) => m.model), questions: doc.dataset.questions, demo: Boolean(doc.demo) });
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

  /** Stores a dataset under the hash of its questions; returns that id. */
  async saveDataset(dataset: Dataset): Promise<string> {
    const id = `d1:${await sha256Hex(canonicalJson(dataset.questions))}`;
    const stored: StoredDataset = { ...dataset, id, storedAt: new Date().toISOString() };
    await this.db.put('datasets', stored);
    return id;
  }

  getDataset(id: string): Promise<StoredDataset | undefined> {
    return this.db.get('datasets', id);
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
      if (!out.has(o.model)) out.set(o.model, new Map());
      out.get(o.model)!.set(o.questionId, o.grade);
    }
    return out;
  }
}
