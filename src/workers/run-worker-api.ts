/**
 * What the run worker does: it holds the keys of the runs it is running in memory only, walks
 * each run through the runner, and posts throttled progress to the page. A factory, so the same
 * API runs in the module worker (run.worker.ts) and in Node tests over a MessageChannel.
 */
import { executeRun, newRun, type ExecuteOptions } from '../pipeline/runner';
import { keysNotGiven, runModels, type RunKeys, type RunProgress, type RunRecord, type RunSpec } from '../model/run-spec';
import { keyNotRememberedMessage } from '../providers/errors';
import { unpackRunSpec } from './run-spec-transfer';
import { flushWrites } from '../store/stores';
import { realmStores } from '../store/connection';
import { DEFAULT_PRICES, type PriceTable } from '../model/cost';
import { checkConnection, runnerStages } from './real-stages';
import { PROGRESS_INTERVAL_MS, RUN_ELSEWHERE, RUNS_CHANNEL, runLockName, type ProgressListener, type RunListing, type RunsMessage, type RunUpdate, type RunWorkerApi } from './protocol';
import { createStorageApi } from './storage-api';
import { throttle } from './throttle';
import { errorInfo } from '../model/app-error';
import { scrubbedError, secretScrubber } from '../providers/secret-scrub';
import { runBaseUrlProblem } from '../providers/base-url';
import { executeMultipleChoiceRun } from '../multiple-choice/job';
import { storageFullAtStart } from '../store/write-errors';

interface Job {
  controller: AbortController;
  listeners: Set<ProgressListener>;
  last?: RunUpdate;
  done: Promise<RunRecord>;
}

export interface RunWorkerOptions {
  /** IndexedDB database name (tests use their own). */
  dbName?: string;
  /** Where the app's own files are served, until the page says (setAppBase). */
  appBase?: string;
  /**
   * Web Locks and a BroadcastChannel, so one run executes in one tab while others watch
   * (default: when the environment has Web Locks, i.e. in a browser; Node tests run without).
   */
  crossTab?: { locks: LockManager; channel: BroadcastChannel } | null;
}

function browserCrossTab(): RunWorkerOptions['crossTab'] {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks && typeof BroadcastChannel === 'function' ? { locks, channel: new BroadcastChannel(RUNS_CHANNEL) } : null;
}

export function createRunWorkerApi(options: RunWorkerOptions = {}): RunWorkerApi {
  const jobs = new Map<string, Job>();
  const launching = new Map<string, Promise<'running' | 'elsewhere'>>();
  let storesUsed = false;
  let prices: PriceTable | undefined;
  let appBase = options.appBase ?? '';
  const crossTab = options.crossTab === undefined ? browserCrossTab() : options.crossTab;
  // Another tab's page may ask the tab running a run to pause or cancel it.
  crossTab?.channel.addEventListener('message', (e: MessageEvent<RunsMessage>) => {
    if (e.data?.type === 'control') jobs.get(e.data.runId)?.controller.abort(e.data.action);
  });

  // This realm's one connection (store/connection.ts), shared with every other API of this worker.
  const stores = () => ((storesUsed = true), realmStores(options.dbName));
  const fail = (e: unknown, where: string) => ({ ok: false as const, error: errorInfo(e, where) });

  function toUpdate(run: RunRecord): RunUpdate {
    return { runId: run.id, status: run.status, progress: run.progress, error: run.error, reportId: run.reportId, ...(run.excluded ? { excluded: run.excluded } : {}), ...(run.partialReport ? { partialReport: run.partialReport } : {}), ...(run.partialError ? { partialError: run.partialError } : {}) };
  }

  function post(job: Job, update: RunUpdate) {
    job.last = update;
    crossTab?.channel.postMessage({ type: 'update', update } satisfies RunsMessage);
    for (const listener of job.listeners) {
      // A page that went away leaves a dead proxy behind; drop it rather than fail the run.
      Promise.resolve(listener(update)).catch(() => job.listeners.delete(listener));
    }
  }

  /** Starts the run here unless another tab runs it ('elsewhere'); holds its lock while it runs. */
  async function launch(runId: string, keys: RunKeys, onProgress?: ProgressListener, options: ExecuteOptions = {}): Promise<'running' | 'elsewhere'> {
    const join = () => {
      if (onProgress) jobs.get(runId)?.listeners.add(onProgress);
    };
    // A second call while the first is still taking the lock joins it rather than find it taken.
    const pending = launching.get(runId);
    if (pending) {
      const outcome = await pending;
      if (outcome === 'running') join();
      return outcome;
    }
    if (jobs.has(runId)) {
      join();
      return 'running';
    }
    const attempt = acquire(runId, keys, onProgress, options);
    launching.set(runId, attempt);
    try {
      return await attempt;
    } finally {
      launching.delete(runId);
    }
  }

  function acquire(runId: string, keys: RunKeys, onProgress: ProgressListener | undefined, options: ExecuteOptions): Promise<'running' | 'elsewhere'> {
    if (!crossTab) {
      begin(runId, keys, onProgress, options);
      return Promise.resolve('running');
    }
    return new Promise((resolve, reject) => {
      crossTab.locks
        .request(runLockName(runId), { ifAvailable: true }, async (lock) => {
          if (!lock) return resolve('elsewhere');
          const job = begin(runId, keys, onProgress, options);
          resolve('running');
          // The lock is held until the run stops: done, paused, cancelled or failed.
          await job.done;
        })
        .catch(reject);
    });
  }

  function begin(runId: string, keys: RunKeys, onProgress: ProgressListener | undefined, options: ExecuteOptions): Job {
    const controller = new AbortController();
    const job: Job = { controller, listeners: new Set(onProgress ? [onProgress] : []), done: undefined as never };
    // The live progress object goes out as it is when the throttle fires; posting it copies it.
    const throttled = throttle(({ progress, run }: { progress: RunProgress; run: RunRecord }) => post(job, { ...toUpdate(run), progress }), PROGRESS_INTERVAL_MS);
    const execute = async () => {
      const s = await stores();
      try {
        // Inside the try: a stored price table that cannot be read fails the run with why.
        prices ??= (await s.settings.getPriceTable()) ?? DEFAULT_PRICES;
        // A multiple-choice run (RunSpec.mc) goes through its own job, not the Sem-ECE runner.
        if ((await s.runs.getRun(runId))?.spec.mc) return await executeMultipleChoiceRun(runId, keys, { runs: s.runs, samples: s.samples, prices, onProgress: (progress, run) => throttled({ progress, run }) }, controller.signal);
        return await executeRun(runId, keys, { runs: s.runs, samples: s.samples, stageCache: s.stages, stages: runnerStages(s, appBase), prices, onProgress: (progress, run) => throttled({ progress, run }) }, controller.signal, options);
      } catch (e) {
        const run = (await s.runs.getRun(runId))!;
        // An unexpected throw may quote a request: the stored error goes through the one scrubber.
        const failed: RunRecord = { ...run, status: 'failed', error: scrubbedError(errorInfo(e, 'run worker'), secretScrubber(Object.values(keys))) };
        // Told to the page even when it cannot be stored (a full storage): the record keeps its last checkpoint.
        await s.runs.saveRun(failed).catch(() => undefined);
        return failed;
      }
    };
    // Registered before anything is awaited, so a concurrent call finds the job.
    jobs.set(runId, job);
    job.done = execute().then(
      (final) => {
        throttled.flush();
        post(job, toUpdate(final));
        jobs.delete(runId);
        return final;
      },
      (e) => {
        jobs.delete(runId);
        throw e;
      },
    );
    // Whoever awaits `done` (pause, cancel) sees a failure; nobody else has to.
    job.done.catch(() => undefined);
    return job;
  }

  function listing(run: RunRecord): RunListing {
    const questionCount = run.spec.dataset.questions.length;
    return { ...run, spec: { ...run.spec, dataset: { ...run.spec.dataset, questions: [] } }, live: jobs.has(run.id), questionCount };
  }

  return {
    ...createStorageApi(stores),
    async start(sent, keys, onProgress) {
      let spec: RunSpec;
      try {
        spec = unpackRunSpec(sent);
      } catch (e) {
        return { ok: false, error: { kind: 'bad-request', message: (e as Error).message, where: 'run settings' } };
      }
      // Refused before the run is stored: a base URL with a password in it would be kept with the run.
      const badUrl = runBaseUrlProblem(spec);
      if (badUrl) return { ok: false, error: { kind: 'bad-request', message: badUrl, where: 'run settings' } };
      try {
        const s = await stores();
        const run = newRun(spec);
        // Refused here, the run does not exist yet: a full storage says to start it again, not to resume.
        await s.runs.saveRun(run).catch((e: unknown) => {
          throw storageFullAtStart(e);
        });
        // A fresh id: no other tab can hold its lock.
        await launch(run.id, keys, onProgress);
        return { ok: true, value: { runId: run.id } };
      } catch (e) {
        return fail(e, 'starting the run');
      }
    },
    async resume(runId, keys, onProgress) {
      try {
        const run = await (await stores()).runs.getRun(runId);
        if (!run) return { ok: false, error: { kind: 'not-found', message: `There is no run ${runId} on this device.` } };
        // A done run is run again only to retry the questions its report left out (the rest comes from the caches).
        if (run.status === 'done' && !run.excluded?.length) return { ok: false, error: { kind: 'done', message: 'This run is already complete.' } };
        const notGiven = keysNotGiven(run, keys);
        if (notGiven.length > 0) return { ok: false, error: { kind: 'key-not-remembered', message: keyNotRememberedMessage(notGiven) } };
        if ((await launch(runId, keys, onProgress)) === 'elsewhere') return { ok: false, error: { ...RUN_ELSEWHERE } };
        return { ok: true, value: { runId } };
      } catch (e) {
        return fail(e, 'resuming the run');
      }
    },
    async scorePartial(runId, keys, onProgress) {
      try {
        const run = await (await stores()).runs.getRun(runId);
        if (!run) return { ok: false, error: { kind: 'not-found', message: `There is no run ${runId} on this device.` } };
        if (run.spec.mc) return { ok: false, error: { kind: 'not-supported', message: 'A multiple-choice run has no partial report: resume it to finish.' } };
        if (!['paused', 'cancelled', 'failed'].includes(run.status)) return { ok: false, error: { kind: 'not-stopped', message: `A partial report is made of a paused, cancelled or failed run; this one is ${run.status}.` } };
        // Only the judges are asked for a partial report: a sampled model's key is not needed.
        const judges = keysNotGiven(run, keys, runModels(run.spec).slice(run.spec.models.length));
        if (judges.length > 0) return { ok: false, error: { kind: 'key-not-remembered', message: keyNotRememberedMessage(judges) } };
        if ((await launch(runId, keys, onProgress, { partial: true })) === 'elsewhere') return { ok: false, error: { ...RUN_ELSEWHERE } };
        return { ok: true, value: { runId } };
      } catch (e) {
        return fail(e, 'making the partial report');
      }
    },
    async watch(runId, onProgress) {
      const job = jobs.get(runId);
      if (job) {
        job.listeners.add(onProgress);
        if (job.last) return { ok: true, value: job.last };
      }
      const run = await (await stores()).runs.getRun(runId);
      if (!run) return { ok: false, error: { kind: 'not-found', message: `There is no run ${runId} on this device.` } };
      return { ok: true, value: toUpdate(run) };
    },
    async pause(runId) {
      const job = jobs.get(runId);
      if (!job) return { ok: false, error: { kind: 'not-running', message: 'This run is not running.' } };
      job.controller.abort('pause');
      return { ok: true, value: (await job.done).status };
    },
    async cancel(runId) {
      const job = jobs.get(runId);
      if (job) {
        job.controller.abort('cancel');
        return { ok: true, value: (await job.done).status };
      }
      const s = await stores();
      const run = await s.runs.getRun(runId);
      if (!run) return { ok: false, error: { kind: 'not-found', message: `There is no run ${runId} on this device.` } };
      if (run.status !== 'done') await s.runs.saveRun({ ...run, status: 'cancelled', updatedAt: new Date().toISOString() });
      return { ok: true, value: run.status === 'done' ? 'done' : 'cancelled' };
    },
    async status(runId) {
      const run = await (await stores()).runs.getRun(runId);
      return run ? { ok: true, value: listing(run) } : { ok: false, error: { kind: 'not-found', message: `There is no run ${runId} on this device.` } };
    },
    async listRuns() {
      try {
        const { runs, unreadable } = await (await stores()).runs.listRuns();
        return { ok: true, value: { runs: runs.map((r) => listing(r)), unreadable } };
      } catch (e) {
        return fail(e, 'listing runs');
      }
    },
    async deleteRun(runId) {
      const job = jobs.get(runId);
      if (job) {
        job.controller.abort('cancel');
        await job.done;
      }
      await (await stores()).runs.deleteRun(runId);
      return { ok: true, value: true };
    },
    testConnection: (model, apiKey) => checkConnection(model, apiKey),
    async flushWrites() {
      try {
        // Only when stores are open: a page going away must not open the database for nothing.
        if (storesUsed) await flushWrites(await stores());
        return { ok: true, value: true };
      } catch (e) {
        return fail(e, 'storing samples');
      }
    },
    async setAppBase(url) {
      appBase = url;
      return { ok: true, value: true };
    },
    async setPrices(table) {
      prices = table;
      await (await stores()).settings.setPriceTable(table);
      return { ok: true, value: true };
    },
  };
}
