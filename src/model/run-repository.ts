/**
 * The port a run's lifecycle (pipeline/run-lifecycle.ts) reads and writes its record through: the
 * run, its report, and a person's grade overrides. The browser's store implements it over
 * IndexedDB (store/runs.ts); `MemoryRunRepository` holds one command's run in memory (the CLI's
 * `semece mc`, whose outputs are files, runs the same phases over it).
 */
import type { ReportDocument } from './report';
import type { Grade } from './rows';
import { withoutKey, type RunRecord } from './run-spec';

export interface RunRepository {
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Stores the record as it is now (without any key: see sanitizeRun). */
  saveRun(run: RunRecord): Promise<void>;
  saveReport(runId: string, document: ReportDocument): Promise<void>;
  /** Overrides of one run as a lookup `model → questionId → grade`. */
  gradeOverrides(runId: string): Promise<Map<string, Map<string, Grade>>>;
}

/** A copy of a run record with every model spec stripped of any `apiKey` field. */
export function sanitizeRun(run: RunRecord): RunRecord {
  const spec = run.spec;
  const clustering = spec.clustering.method === 'judge' ? { ...spec.clustering, judge: withoutKey(spec.clustering.judge) } : spec.clustering;
  const grading = spec.grading.method === 'judge' ? { ...spec.grading, judge: withoutKey(spec.grading.judge) } : spec.grading;
  return { ...run, spec: { ...spec, models: spec.models.map((m) => withoutKey(m)), clustering, grading } };
}

/**
 * Runs and reports in memory, each stored as a copy (as a store would: a later change to the
 * caller's object does not reach what is stored), sanitized like the browser's store.
 */
export class MemoryRunRepository implements RunRepository {
  readonly runs = new Map<string, RunRecord>();
  readonly reports = new Map<string, ReportDocument>();
  /** `runId → model → questionId → grade`. */
  readonly overrides = new Map<string, Map<string, Map<string, Grade>>>();

  async getRun(id: string): Promise<RunRecord | undefined> {
    const run = this.runs.get(id);
    return run && structuredClone(run);
  }
  async saveRun(run: RunRecord): Promise<void> {
    this.runs.set(run.id, structuredClone(sanitizeRun(run)));
  }
  async saveReport(runId: string, document: ReportDocument): Promise<void> {
    this.reports.set(runId, structuredClone(document));
  }
  async getReport(runId: string): Promise<ReportDocument | undefined> {
    const doc = this.reports.get(runId);
    return doc && structuredClone(doc);
  }
  async gradeOverrides(runId: string): Promise<Map<string, Map<string, Grade>>> {
    return structuredClone(this.overrides.get(runId) ?? new Map());
  }
}
