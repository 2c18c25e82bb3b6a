/**
 * The run worker's API as the page sees it. Every method answers exactly once, with a value:
 * expected failures come back as `{ok: false, error}` rather than as a thrown error (and a throw
 * keeps its detail through worker-connection.ts). Progress comes separately, through a throttled
 * callback the page passes in. The run worker owns the database: the page reads and writes
 * saved reports, remembered keys and settings through it (StorageApi), never opening IndexedDB.
 */
import type { CacheVerifyOutcome } from '../pipeline/cache-verify';
import type { PriceTable } from '../model/cost';
import type { ReportDocument } from '../model/report';
import type { RunKeys, RunProgress, RunRecord, RunSpec, RunStatus, ModelSpec } from '../model/run-spec';
import type { PackedRunSpec } from './run-spec-transfer';
import type { Grade, Result } from '../model/rows';
import type { SavedReportSummary } from '../store/report-records';
import type { UnreadableRecord } from '../store/runs';
import type { QuestionSamples } from '../pipeline/question-samples';
import type { AuditRecord } from '../model/audit-repository';

export type { SavedReportSummary } from '../store/report-records';
export type { UnreadableRecord } from '../store/runs';
export type { QuestionSamples } from '../pipeline/question-samples';

export interface RunUpdate {
  runId: string;
  status: RunStatus;
  progress: RunProgress;
  error?: RunRecord['error'];
  reportId?: string;
  excluded?: RunRecord['excluded'];
  partialReport?: RunRecord['partialReport'];
  partialError?: RunRecord['partialError'];
}

export type ProgressListener = (update: RunUpdate) => void;

/** A run as listed: its record plus whether this worker is running it right now. */
export interface RunListing extends RunRecord {
  live: boolean;
  /**
   * Questions in the run's dataset. A listing leaves the questions themselves out (spec.dataset.
   * questions is empty): 40,000 of them would take the page's main thread 50–100 ms to receive,
   * and the page needs only their number; the workers read them from the stored run.
   */
  questionCount: number;
}

/** Runs newest first; stored records that cannot be read are listed apart, with why. */
export interface RunList {
  runs: RunListing[];
  unreadable: UnreadableRecord[];
}

/** A person's grade for one question of one model, in a saved report. */
export interface GradeOverride {
  runId: string;
  model: string;
  questionId: string;
  grade: Grade;
}

/** What the page keeps on this device, read and written by the worker that owns the database. */
export interface StorageApi {
  /** A saved report, upgraded and validated; null when there is none under this id. */
  getReport(id: string): Promise<Result<ReportDocument | null>>;
  saveReport(id: string, document: ReportDocument): Promise<Result<true>>;
  /** Reports no run owns (kept share links, saved files), newest first. */
  listSavedReports(): Promise<Result<SavedReportSummary[]>>;
  /** Deletes a saved report and its overrides; a run of the same id is left alone. */
  deleteReport(id: string): Promise<Result<true>>;
  /** Keeps an override as a record (so re-scoring the run re-applies it) and the document that shows it. */
  saveGradeOverride(override: GradeOverride, document: ReportDocument): Promise<Result<true>>;
  /**
   * One question's samples and classes for a report that left them out, read back from this
   * browser's caches under the run `reportId` belongs to (pipeline/question-samples.ts).
   */
  questionSamples(reportId: string, model: string, questionId: string): Promise<Result<QuestionSamples>>;
  /** The saved report `reportId` checked against the samples this browser's caches hold for its run (pipeline/cache-verify.ts). */
  verifyFromCache(reportId: string): Promise<Result<CacheVerifyOutcome>>;
  /** A person's audit of the report `reportId` in progress (model/audit-repository.ts); null when none was begun. */
  getAudit(reportId: string): Promise<Result<AuditRecord | null>>;
  /** Saves the audit as it is now (at every edit, so a reload resumes it). */
  saveAudit(record: AuditRecord): Promise<Result<true>>;
  deleteAudit(reportId: string): Promise<Result<true>>;
  /** Keys the user chose to remember on this device, by keyId. */
  rememberedKeys(): Promise<Result<Record<string, string>>>;
  /** Stores a key; only called once the user has ticked "remember on this device". */
  rememberKey(keyId: string, key: string): Promise<Result<true>>;
  forgetKey(keyId: string): Promise<Result<true>>;
  /** The edited price table; null when none was saved. */
  getPrices(): Promise<Result<PriceTable | null>>;
  /** The model hub address in-page models come from (the default hub unless a mirror was named). */
  getModelHub(): Promise<Result<string>>;
  setModelHub(hub: string | undefined): Promise<Result<true>>;
  /** Bytes used and available for this origin; null when the browser does not tell. */
  storageUsed(): Promise<Result<{ usage: number; quota: number } | null>>;
}

export interface ConnectionCheck {
  ms: number;
  /** The model's reply to the cheap test prompt, trimmed. */
  reply: string;
}

export interface RunWorkerApi extends StorageApi {
  /**
   * Stores a new run and starts it; resolves with its id as soon as it is stored. The page sends
   * the spec packed (run-spec-transfer.ts), so a large dataset does not block its main thread.
   */
  start(spec: RunSpec | PackedRunSpec, keys: RunKeys, onProgress?: ProgressListener): Promise<Result<{ runId: string }>>;
  /** Continues a paused, failed or interrupted run from its caches. */
  resume(runId: string, keys: RunKeys, onProgress?: ProgressListener): Promise<Result<{ runId: string }>>;
  /** A report of a paused, cancelled or failed run over its complete questions (nothing is sampled); the run keeps its status. */
  scorePartial(runId: string, keys: RunKeys, onProgress?: ProgressListener): Promise<Result<{ runId: string }>>;
  /** Attaches a progress listener to a run this worker is running. */
  watch(runId: string, onProgress: ProgressListener): Promise<Result<RunUpdate>>;
  pause(runId: string): Promise<Result<RunStatus>>;
  cancel(runId: string): Promise<Result<RunStatus>>;
  /** The run as listed (without its questions; see RunListing). */
  status(runId: string): Promise<Result<RunListing>>;
  listRuns(): Promise<Result<RunList>>;
  deleteRun(runId: string): Promise<Result<true>>;
  /** Sends one cheap request to the model; the key goes to this model's provider only. */
  testConnection(model: ModelSpec, apiKey: string | undefined): Promise<Result<ConnectionCheck>>;
  setPrices(prices: PriceTable): Promise<Result<true>>;
  /** The page's base URL, where the app's own files (e.g. models/) are served. */
  setAppBase(url: string): Promise<Result<true>>;
  /** Commits batched writes now: the page is being hidden or unloaded (store/sample-store.ts). */
  flushWrites(): Promise<Result<true>>;
}

/** Minimum ms between two progress posts of one run (the last update always arrives). */
export const PROGRESS_INTERVAL_MS = 200;

/**
 * One run executes in one tab at a time: the worker running it holds this Web Lock for as long
 * as it runs (a closed tab releases it with its worker). Another tab that opens the run finds
 * the lock held, watches instead, and takes over once the lock is free and the run unfinished.
 */
export const runLockName = (runId: string) => `semece-run-${runId}`;

/** The BroadcastChannel over which tabs see each other's runs and ask them to pause or cancel. */
export const RUNS_CHANNEL = 'semece-runs';

export type RunsMessage = { type: 'update'; update: RunUpdate } | { type: 'control'; runId: string; action: 'pause' | 'cancel' };

/** What start/resume answer when another tab holds the run's lock. */
export const RUN_ELSEWHERE = { kind: 'locked', message: 'This run is running in another tab.' } as const;

