/**
 * The runs this worker is running: each one a job with its abort controller, its listeners and
 * its last update. A run is started here unless another tab holds its Web Lock ('elsewhere'); it
 * goes through the pipeline's one lifecycle (an open-answer run through the runner, a
 * multiple-choice run through its own phases), and its progress is posted, throttled, to every
 * listener and to the other tabs — at each change the lifecycle reports and at each phase it
 * enters or finishes, so the page sees a stage begin even when the stage itself says nothing.
 */
import { executeRun, type ExecuteOptions } from '../pipeline/runner';
import type { RunKeys, RunProgress, RunRecord } from '../model/run-spec';
import type { Stores } from '../store/stores';
import { DEFAULT_PRICES, type PriceTable } from '../model/cost';
import { runnerStages } from './real-stages';
import { PROGRESS_INTERVAL_MS, runLockName, type ProgressListener, type RunsMessage, type RunUpdate } from './protocol';
import { throttle } from './throttle';
import { errorInfo } from '../model/app-error';
import { scrubbedError, secretScrubber } from '../providers/secret-scrub';
import { executeMultipleChoiceRun } from '../multiple-choice/job';

export interface Job {
  controller: AbortController;
  listeners: Set<ProgressListener>;
  last?: RunUpdate;
  done: Promise<RunRecord>;
}

/** Web Locks and a BroadcastChannel, so one run executes in one tab while others watch. */
export type CrossTab = { locks: LockManager; channel: BroadcastChannel } | null;

export interface RunJobsDeps {
  stores(): Promise<Stores>;
  crossTab: CrossTab;
  /** The price table the page set, if it set one (read from the store otherwise). */
  prices(): PriceTable | undefined;
  setPrices(table: PriceTable): void;
  /** Where the app's own files are served (models/ for the in-page models). */
  appBase(): string;
}

/** A run record as the page is told of it. */
export function toUpdate(run: RunRecord): RunUpdate {
  return { runId: run.id, status: run.status, progress: run.progress, error: run.error, reportId: run.reportId, ...(run.excluded ? { excluded: run.excluded } : {}), ...(run.partialReport ? { partialReport: run.partialReport } : {}), ...(run.partialError ? { partialError: run.partialError } : {}) };
}

export class RunJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly launching = new Map<string, Promise<'running' | 'elsewhere'>>();

  constructor(private readonly deps: RunJobsDeps) {
    // Another tab's page may ask the tab running a run to pause or cancel it.
    deps.crossTab?.channel.addEventListener('message', (e: MessageEvent<RunsMessage>) => {
      if (e.data?.type === 'control') this.jobs.get(e.data.runId)?.controller.abort(e.data.action);
    });
  }

  get(runId: string): Job | undefined {
    return this.jobs.get(runId);
  }

  /** Stops a running run (a pause or a cancel) and waits for its final record; undefined when it is not running here. */
  async stop(runId: string, reason: 'pause' | 'cancel'): Promise<RunRecord | undefined> {
    const job = this.jobs.get(runId);
    if (!job) return undefined;
    job.controller.abort(reason);
    return job.done;
  }

  /** Starts the run here unless another tab runs it ('elsewhere'); holds its lock while it runs. */
  async launch(runId: string, keys: RunKeys, onProgress?: ProgressListener, options: ExecuteOptions = {}): Promise<'running' | 'elsewhere'> {
    const join = () => {
      if (onProgress) this.jobs.get(runId)?.listeners.add(onProgress);
    };
    // A second call while the first is still taking the lock joins it rather than find it taken.
    const pending = this.launching.get(runId);
    if (pending) {
      const outcome = await pending;
      if (outcome === 'running') join();
      return outcome;
    }
    if (this.jobs.has(runId)) {
      join();
      return 'running';
    }
    const attempt = this.acquire(runId, keys, onProgress, options);
    this.launching.set(runId, attempt);
    try {
      return await attempt;
    } finally {
      this.launching.delete(runId);
    }
  }

  private acquire(runId: string, keys: RunKeys, onProgress: ProgressListener | undefined, options: ExecuteOptions): Promise<'running' | 'elsewhere'> {
    const crossTab = this.deps.crossTab;
    if (!crossTab) {
      this.begin(runId, keys, onProgress, options);
      return Promise.resolve('running');
    }
    return new Promise((resolve, reject) => {
      crossTab.locks
        .request(runLockName(runId), { ifAvailable: true }, async (lock) => {
          if (!lock) return resolve('elsewhere');
          const job = this.begin(runId, keys, onProgress, options);
          resolve('running');
          // The lock is held until the run stops: done, paused, cancelled or failed.
          await job.done;
        })
        .catch(reject);
    });
  }

  private begin(runId: string, keys: RunKeys, onProgress: ProgressListener | undefined, options: ExecuteOptions): Job {
    const controller = new AbortController();
    const job: Job = { controller, listeners: new Set(onProgress ? [onProgress] : []), done: undefined as never };
    // The live progress object goes out as it is when the throttle fires; posting it copies it.
    const throttled = throttle(({ progress, run }: { progress: RunProgress; run: RunRecord }) => this.post(job, { ...toUpdate(run), progress }), PROGRESS_INTERVAL_MS);
    let current: { progress: RunProgress; run: RunRecord } | undefined;
    const listen: JobListeners = {
      onProgress: (progress, run) => throttled((current = { progress, run })),
      // A phase entered or finished is news of its own: posted like any change, throttled.
      onPhase: () => current && throttled(current),
    };
    // Registered before anything is awaited, so a concurrent call finds the job.
    this.jobs.set(runId, job);
    job.done = this.execute(runId, keys, listen, controller.signal, options).then(
      (final) => {
        throttled.flush();
        this.post(job, toUpdate(final));
        this.jobs.delete(runId);
        return final;
      },
      (e) => {
        this.jobs.delete(runId);
        throw e;
      },
    );
    // Whoever awaits `done` (pause, cancel) sees a failure; nobody else has to.
    job.done.catch(() => undefined);
    return job;
  }

  /** The run through its lifecycle; an unexpected throw fails it here, stored with its kind and scrubbed. */
  private async execute(runId: string, keys: RunKeys, listen: JobListeners, signal: AbortSignal, options: ExecuteOptions): Promise<RunRecord> {
    const s = await this.deps.stores();
    try {
      // Inside the try: a stored price table that cannot be read fails the run with why.
      const prices = this.deps.prices() ?? (await s.settings.getPriceTable()) ?? DEFAULT_PRICES;
      this.deps.setPrices(prices);
      // A multiple-choice run (RunSpec.mc) goes through its own phases, not the open-answer ones.
      if ((await s.runs.getRun(runId))?.spec.mc) return await executeMultipleChoiceRun(runId, keys, { runs: s.runs, samples: s.samples, prices, ...listen }, signal);
      return await executeRun(runId, keys, { runs: s.runs, samples: s.samples, stageCache: s.stages, stages: runnerStages(s, this.deps.appBase()), prices, ...listen }, signal, options);
    } catch (e) {
      const run = (await s.runs.getRun(runId))!;
      // An unexpected throw may quote a request: the stored error goes through the one scrubber.
      const failed: RunRecord = { ...run, status: 'failed', error: scrubbedError(errorInfo(e, 'run worker'), secretScrubber(Object.values(keys))) };
      // Told to the page even when it cannot be stored (a full storage): the record keeps its last checkpoint.
      await s.runs.saveRun(failed).catch(() => undefined);
      return failed;
    }
  }

  private post(job: Job, update: RunUpdate) {
    job.last = update;
    this.deps.crossTab?.channel.postMessage({ type: 'update', update } satisfies RunsMessage);
    for (const listener of job.listeners) {
      // A page that went away leaves a dead proxy behind; drop it rather than fail the run.
      Promise.resolve(listener(update)).catch(() => job.listeners.delete(listener));
    }
  }
}

interface JobListeners {
  onProgress(progress: RunProgress, run: RunRecord): void;
  onPhase(): void;
}
