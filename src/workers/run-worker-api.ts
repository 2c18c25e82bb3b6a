/**
 * What the run worker does: it holds the keys of the runs it is running in memory only, walks
 * each run through the runner, and posts throttled progress to the page. A factory, so the same
 * API runs in the module worker (run.worker.ts) and in Node tests over a MessageChannel.
 */
import { executeRun, newRun } from '../pipeline/runner';
import type { RunKeys, RunProgress, RunRecord } from '../pipeline/run-types';
import { openStores, type Stores } from '../store';
import { DEFAULT_PRICES, type PriceTable } from '../pipeline/cost';
import { checkConnection, runnerStages } from './run-stages';
import { PROGRESS_INTERVAL_MS, type ProgressListener, type RunListing, type RunUpdate, type RunWorkerApi } from './protocol';
import { throttle } from './throttle';
import { errorInfo } from './transfer';

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
}

export function createRunWorkerApi(options: RunWorkerOptions = {}): RunWorkerApi {
  const jobs = new Map<string, Job>();
  let storesPromise: Promise<Stores> | undefined;
  let prices: PriceTable | undefined;
  let appBase = options.appBase ?? '';

  const stores = () => (storesPromise ??= openStores(options.dbName));
  const fail = (e: unknown, where: string) => ({ ok: false as const, error: errorInfo(e, where) });

  function toUpdate(run: RunRecord): RunUpdate {
    return { runId: run.id, status: run.status, progress: run.progress, error: run.error, reportId: run.reportId };
  }

  function post(job: Job, update: RunUpdate) {
    job.last = update;
    for (const listener of job.listeners) {
      // A page that went away leaves a dead proxy behind; drop it rather than fail the run.
      Promise.resolve(listener(update)).catch(() => job.listeners.delete(listener));
    }
  }

  async function launch(runId: string, keys: RunKeys, onProgress?: ProgressListener) {
    if (jobs.has(runId)) {
      if (onProgress) jobs.get(runId)!.listeners.add(onProgress);
      return;
    }
    const s = await stores();
    prices ??= (await s.settings.getPriceTable()) ?? DEFAULT_PRICES;
    const controller = new AbortController();
    const job: Job = { controller, listeners: new Set(onProgress ? [onProgress] : []), done: undefined as never };
    // The live progress object goes out as it is when the throttle fires; posting it copies it.
    const throttled = throttle(({ progress, run }: { progress: RunProgress; run: RunRecord }) => post(job, { ...toUpdate(run), progress }), PROGRESS_INTERVAL_MS);
    job.done = executeRun(runId, keys, { runs: s.runs, samples: s.samples, stages: s.stages, impl: runnerStages(s, appBase), prices, onProgress: (progress, run) => throttled({ progress, run }) }, controller.signal)
      .catch(async (e) => {
        const run = (await s.runs.getRun(runId))!;
        const failed: RunRecord = { ...run, status: 'failed', error: errorInfo(e, 'run worker') };
        await s.runs.saveRun(failed);
        return failed;
      })
      .then((final) => {
        throttled.flush();
        post(job, toUpdate(final));
        jobs.delete(runId);
        return final;
      });
    jobs.set(runId, job);
  }

  function listing(run: RunRecord, withQuestions = true): RunListing {
    const questionCount = run.spec.dataset.questions.length;
    const spec = withQuestions ? run.spec : { ...run.spec, dataset: { ...run.spec.dataset, questions: [] } };
    return { ...run, spec, live: jobs.has(run.id), questionCount };
  }

  return {
    async start(spec, keys, onProgress) {
      try {
        const s = await stores();
        const run = newRun(spec);
        await s.runs.saveRun(run);
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
        if (run.status === 'done') return { ok: false, error: { kind: 'done', message: 'This run is already complete.' } };
        await launch(runId, keys, onProgress);
        return { ok: true, value: { runId } };
      } catch (e) {
        return fail(e, 'resuming the run');
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
        const runs = await (await stores()).runs.listRuns();
        return { ok: true, value: runs.map((r) => listing(r, false)) };
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
