/**
 * What the run worker does: it holds the keys of the runs it is running in memory only, walks
 * each run through its lifecycle (run-jobs.ts), and posts throttled progress to the page. A
 * factory, so the same API runs in the module worker (run.worker.ts) and in Node tests over a
 * MessageChannel. Each operation is one function over the worker's state (`RunWorker`).
 */
import { newRun } from '../pipeline/runner';
import { keysNotGiven, runModels, type RunKeys, type RunRecord, type RunSpec } from '../model/run-spec';
import { keyNotRememberedMessage } from '../providers/errors';
import { unpackRunSpec } from './run-spec-transfer';
import { flushWrites, type Stores } from '../store/stores';
import { realmStores } from '../store/connection';
import type { PriceTable } from '../model/cost';
import { checkConnection } from './real-stages';
import { RUN_ELSEWHERE, RUNS_CHANNEL, type ProgressListener, type RunListing, type RunWorkerApi } from './protocol';
import { createStorageApi } from './storage-api';
import { errorInfo, errorMessage } from '../model/app-error';
import { runBaseUrlProblem } from '../providers/base-url';
import { storageFullAtStart } from '../store/write-errors';
import type { Result, StageError } from '../model/rows';
import { RunJobs, toUpdate, type CrossTab } from './run-jobs';

export interface RunWorkerOptions {
  /** IndexedDB database name (tests use their own). */
  dbName?: string;
  /** Where the app's own files are served, until the page says (setAppBase). */
  appBase?: string;
  /**
   * Web Locks and a BroadcastChannel, so one run executes in one tab while others watch
   * (default: when the environment has Web Locks, i.e. in a browser; Node tests run without).
   */
  crossTab?: CrossTab;
}

function browserCrossTab(): CrossTab {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks && typeof BroadcastChannel === 'function' ? { locks, channel: new BroadcastChannel(RUNS_CHANNEL) } : null;
}

/** What every operation sees: this realm's stores, the running jobs, and what the page has set. */
interface RunWorker {
  stores(): Promise<Stores>;
  /** Whether the stores were ever opened (a page going away must not open the database for nothing). */
  storesUsed(): boolean;
  jobs: RunJobs;
  settings: { prices?: PriceTable; appBase: string };
}

export function createRunWorkerApi(options: RunWorkerOptions = {}): RunWorkerApi {
  let storesUsed = false;
  const settings: RunWorker['settings'] = { appBase: options.appBase ?? '' };
  // This realm's one connection (store/connection.ts), shared with every other API of this worker.
  const stores = () => ((storesUsed = true), realmStores(options.dbName));
  const jobs = new RunJobs({
    stores,
    crossTab: options.crossTab === undefined ? browserCrossTab() : options.crossTab,
    prices: () => settings.prices,
    setPrices: (table) => (settings.prices = table),
    appBase: () => settings.appBase,
  });
  const w: RunWorker = { stores, storesUsed: () => storesUsed, jobs, settings };
  return {
    ...createStorageApi(stores),
    start: (sent, keys, onProgress) => start(w, sent, keys, onProgress),
    resume: (runId, keys, onProgress) => resume(w, runId, keys, onProgress),
    scorePartial: (runId, keys, onProgress) => scorePartial(w, runId, keys, onProgress),
    watch: (runId, onProgress) => watch(w, runId, onProgress),
    pause: (runId) => pause(w, runId),
    cancel: (runId) => cancel(w, runId),
    status: (runId) => status(w, runId),
    listRuns: () => listRuns(w),
    deleteRun: (runId) => deleteRun(w, runId),
    testConnection: (model, apiKey) => checkConnection(model, apiKey),
    flushWrites: () => flush(w),
    async setAppBase(url) {
      settings.appBase = url;
      return { ok: true, value: true };
    },
    async setPrices(table) {
      settings.prices = table;
      await (await stores()).settings.setPriceTable(table);
      return { ok: true, value: true };
    },
  };
}

const fail = (e: unknown, where: string) => ({ ok: false as const, error: errorInfo(e, where) });
const refused = (error: StageError): Result<never> => ({ ok: false, error });
const notFound = (runId: string) => refused({ kind: 'not-found', message: `There is no run ${runId} on this device.` });

/** A run as the Runs list shows it: without its questions, with their count and whether it runs here. */
function listing(w: RunWorker, run: RunRecord): RunListing {
  const questionCount = run.spec.dataset.questions.length;
  return { ...run, spec: { ...run.spec, dataset: { ...run.spec.dataset, questions: [] } }, live: w.jobs.get(run.id) !== undefined, questionCount };
}

/** The page's spec, unpacked and checked; refused before the run is stored. */
function sentSpec(sent: Parameters<RunWorkerApi['start']>[0]): Result<RunSpec> {
  let spec: RunSpec;
  try {
    spec = unpackRunSpec(sent);
  } catch (e) {
    return refused({ kind: 'bad-request', message: errorMessage(e), where: 'run settings' });
  }
  // A base URL with a password in it would be kept with the run.
  const badUrl = runBaseUrlProblem(spec);
  if (badUrl) return refused({ kind: 'bad-request', message: badUrl, where: 'run settings' });
  return { ok: true, value: spec };
}

async function start(w: RunWorker, sent: Parameters<RunWorkerApi['start']>[0], keys: RunKeys, onProgress?: ProgressListener): ReturnType<RunWorkerApi['start']> {
  const spec = sentSpec(sent);
  if (!spec.ok) return spec;
  try {
    const s = await w.stores();
    const run = newRun(spec.value);
    // Refused here, the run does not exist yet: a full storage says to start it again, not to resume.
    await s.runs.saveRun(run).catch((e: unknown) => {
      throw storageFullAtStart(e);
    });
    // A fresh id: no other tab can hold its lock.
    await w.jobs.launch(run.id, keys, onProgress);
    return { ok: true, value: { runId: run.id } };
  } catch (e) {
    return fail(e, 'starting the run');
  }
}

async function resume(w: RunWorker, runId: string, keys: RunKeys, onProgress?: ProgressListener): ReturnType<RunWorkerApi['resume']> {
  try {
    const run = await (await w.stores()).runs.getRun(runId);
    if (!run) return notFound(runId);
    // A done run is run again only to retry the questions its report left out (the rest comes from the caches).
    if (run.status === 'done' && !run.excluded?.length) return refused({ kind: 'done', message: 'This run is already complete.' });
    const notGiven = keysNotGiven(run, keys);
    if (notGiven.length > 0) return refused({ kind: 'key-not-remembered', message: keyNotRememberedMessage(notGiven) });
    if ((await w.jobs.launch(runId, keys, onProgress)) === 'elsewhere') return refused({ ...RUN_ELSEWHERE });
    return { ok: true, value: { runId } };
  } catch (e) {
    return fail(e, 'resuming the run');
  }
}

async function scorePartial(w: RunWorker, runId: string, keys: RunKeys, onProgress?: ProgressListener): ReturnType<RunWorkerApi['scorePartial']> {
  try {
    const run = await (await w.stores()).runs.getRun(runId);
    if (!run) return notFound(runId);
    if (run.spec.mc) return refused({ kind: 'not-supported', message: 'A multiple-choice run has no partial report: resume it to finish.' });
    if (!['paused', 'cancelled', 'failed'].includes(run.status)) return refused({ kind: 'not-stopped', message: `A partial report is made of a paused, cancelled or failed run; this one is ${run.status}.` });
    // Only the judges are asked for a partial report: a sampled model's key is not needed.
    const judges = keysNotGiven(run, keys, runModels(run.spec).slice(run.spec.models.length));
    if (judges.length > 0) return refused({ kind: 'key-not-remembered', message: keyNotRememberedMessage(judges) });
    if ((await w.jobs.launch(runId, keys, onProgress, { partial: true })) === 'elsewhere') return refused({ ...RUN_ELSEWHERE });
    return { ok: true, value: { runId } };
  } catch (e) {
    return fail(e, 'making the partial report');
  }
}

async function watch(w: RunWorker, runId: string, onProgress: ProgressListener): ReturnType<RunWorkerApi['watch']> {
  const job = w.jobs.get(runId);
  if (job) {
    job.listeners.add(onProgress);
    if (job.last) return { ok: true, value: job.last };
  }
  const run = await (await w.stores()).runs.getRun(runId);
  if (!run) return notFound(runId);
  return { ok: true, value: toUpdate(run) };
}

async function pause(w: RunWorker, runId: string): ReturnType<RunWorkerApi['pause']> {
  const stopped = await w.jobs.stop(runId, 'pause');
  if (!stopped) return refused({ kind: 'not-running', message: 'This run is not running.' });
  return { ok: true, value: stopped.status };
}

async function cancel(w: RunWorker, runId: string): ReturnType<RunWorkerApi['cancel']> {
  const stopped = await w.jobs.stop(runId, 'cancel');
  if (stopped) return { ok: true, value: stopped.status };
  // Not running here: a stored run that is not done is marked cancelled.
  const s = await w.stores();
  const run = await s.runs.getRun(runId);
  if (!run) return notFound(runId);
  if (run.status !== 'done') await s.runs.saveRun({ ...run, status: 'cancelled', updatedAt: new Date().toISOString() });
  return { ok: true, value: run.status === 'done' ? 'done' : 'cancelled' };
}

async function status(w: RunWorker, runId: string): ReturnType<RunWorkerApi['status']> {
  const run = await (await w.stores()).runs.getRun(runId);
  return run ? { ok: true, value: listing(w, run) } : notFound(runId);
}

async function listRuns(w: RunWorker): ReturnType<RunWorkerApi['listRuns']> {
  try {
    const { runs, unreadable } = await (await w.stores()).runs.listRuns();
    return { ok: true, value: { runs: runs.map((r) => listing(w, r)), unreadable } };
  } catch (e) {
    return fail(e, 'listing runs');
  }
}

async function deleteRun(w: RunWorker, runId: string): ReturnType<RunWorkerApi['deleteRun']> {
  await w.jobs.stop(runId, 'cancel');
  const stores = await w.stores();
  // The run's report goes with it, and so does the audit of that report.
  await Promise.all([stores.runs.deleteRun(runId), stores.audits.deleteAudit(runId)]);
  return { ok: true, value: true };
}

async function flush(w: RunWorker): ReturnType<RunWorkerApi['flushWrites']> {
  try {
    // Only when stores are open: a page going away must not open the database for nothing.
    if (w.storesUsed()) await flushWrites(await w.stores());
    return { ok: true, value: true };
  } catch (e) {
    return fail(e, 'storing samples');
  }
}
