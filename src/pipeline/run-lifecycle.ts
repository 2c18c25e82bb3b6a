/**
 * The one lifecycle every run goes through, whatever its phases: the stored record is read, marked
 * running and saved; its phases run in order, each entered and finished through phase events the
 * meter (and any other listener) follows; a checkpoint is saved now and then so a closed tab
 * resumes where it stopped; a pause or cancel stops it as paused or cancelled, a phase that fails
 * fails it with the cause, and an unexpected throw fails it with the thrown error's kind (internal
 * when it has none), naming the phase where the error does not say where it happened. An
 * open-answer run (runner.ts: sample → cluster → grade → score → report) and a multiple-choice run
 * (multiple-choice/job.ts) are each only a list of phases over this.
 *
 * Time comes from `now` (injected: tests and the CLI read the same clock the record is stamped with).
 */
import type { PriceTable } from '../model/cost';
import type { RunRepository } from '../model/run-repository';
import type { RunKeys, RunProgress, RunRecord, RunSpec, StageName } from '../model/run-spec';
import type { StageError } from '../model/rows';
import { secretScrubber, type Scrub } from '../providers/secret-scrub';
import { RunMeter, type PhaseEvent } from './run-meter';
import { errorInfo, errorMessage } from '../model/app-error';

export interface LifecycleDeps {
  runs: RunRepository;
  prices?: PriceTable;
  /** Raw progress on every change; the caller throttles. */
  onProgress?(progress: RunProgress, run: RunRecord): void;
  /** Every phase entered and finished, after the meter has counted it. */
  onPhase?(event: PhaseEvent): void;
  now?: () => number;
}

export interface LifecycleOptions {
  /**
   * A partial report of a paused, cancelled or failed run: the run keeps its status whatever
   * happens (a phase that fails says why in `partialError`), and its phases read what is stored.
   */
  partial?: boolean;
  /** Whether the stored run is of the kind these phases run (a multiple-choice run's phases need `spec.mc`). */
  accepts?(run: RunRecord): boolean;
}

/** What a phase sees of the run it is part of. */
export interface PhaseContext {
  /** The record as it is now (its progress is the meter's, live). */
  readonly run: RunRecord;
  readonly spec: RunSpec;
  readonly keys: RunKeys;
  readonly meter: RunMeter;
  readonly signal: AbortSignal;
  readonly partial: boolean;
  /** The status the run had before this execution (what a partial report leaves it with). */
  readonly prior: RunRecord['status'];
  /** The run's keys' scrubber: every error and reason the run shows, stores or reports goes through it. */
  readonly scrub: Scrub;
  readonly now: () => number;
  /** Progress changed: tells the listener, and saves a checkpoint now and then. */
  notify(): void;
}

/** How a phase ended; a pause or cancel is read from the signal, not returned. */
export type PhaseEnd = { status: 'done' | 'skipped' } | { status: 'failed'; error: StageError };

export interface Phase {
  stage: StageName;
  /** Set for a phase this kind of run does not have: marked skipped, never entered. */
  skipped?: boolean;
  /** The items the phase counts (read when it is entered). */
  total?(): number;
  run?(): Promise<PhaseEnd>;
}

const CHECKPOINT_MS = 1000;

export const DONE: PhaseEnd = { status: 'done' };

/**
 * Runs (or resumes) the stored run `runId` through the phases `plan` gives for it, to its end, a
 * stop or a failure, and returns the final record. Never throws for expected failures: they end
 * as status 'failed' with `error` (with `partialError`, the status kept, for a partial report).
 */
export async function runPhases(
  runId: string,
  keys: RunKeys,
  deps: LifecycleDeps,
  signal: AbortSignal,
  plan: (ctx: PhaseContext) => Phase[],
  options: LifecycleOptions = {},
): Promise<RunRecord> {
  const stored = await deps.runs.getRun(runId);
  if (!stored || (options.accepts && !options.accepts(stored))) throw new Error(`no run with id ${runId}${stored ? ' of this kind' : ''}`);
  const run: RunRecord = stored;
  const partial = options.partial === true;
  const prior = { status: stored.status, error: stored.error };
  const now = deps.now ?? (() => Date.now());
  const scrub = secretScrubber(Object.values(keys));
  const meter = new RunMeter(run.progress, deps.prices, now, scrub);
  // The record's progress is the meter's own, so a listener reading the run sees it as it is now.
  run.progress = meter.progress;
  const end = runEnds(run, deps, meter, now, signal, partial ? prior : undefined);

  run.status = 'running';
  run.error = undefined;
  // Which providers had a key (their ids only): a reloaded page waits for those keys instead of resuming without them.
  const keyed = new Set([...(run.keyed ?? []), ...Object.keys(keys).filter((k) => keys[k])]);
  if (keyed.size > 0) run.keyed = [...keyed];
  await end.save();
  end.notify();

  const ctx: PhaseContext = { run, spec: run.spec, keys, meter, signal, partial, prior: prior.status, scrub, now, notify: end.notify };
  const phaseEvent = (event: PhaseEvent) => {
    meter.onPhase(event);
    deps.onPhase?.(event);
  };
  try {
    for (const phase of plan(ctx)) {
      if (phase.skipped || !phase.run) {
        phaseEvent({ type: 'finish', stage: phase.stage, status: 'skipped' });
        continue;
      }
      phaseEvent({ type: 'enter', stage: phase.stage, total: phase.total?.() ?? 0 });
      const ended = await phase.run();
      if (signal.aborted) return await end.stopped();
      phaseEvent({ type: 'finish', stage: phase.stage, status: ended.status });
      if (ended.status === 'failed') return await end.failed(ended.error);
    }
    if (partial) return await end.stop(prior.status, prior.error);
    delete run.partialReport;
    return await end.stop('done');
  } catch (e) {
    if (signal.aborted) return await end.stopped();
    return await end.stop('failed', thrownError(e, `stage ${meter.progress.stage}`));
  }
}

/**
 * How a run's record is saved and ends: a checkpoint now and then, a stop (done, paused,
 * cancelled, failed) saved with why, and for a partial report (`prior` set) its status kept.
 */
function runEnds(run: RunRecord, deps: LifecycleDeps, meter: RunMeter, now: () => number, signal: AbortSignal, prior?: { status: RunRecord['status']; error?: StageError }) {
  let lastCheckpoint = 0;
  const save = async () => {
    run.updatedAt = new Date(now()).toISOString();
    lastCheckpoint = now();
    await deps.runs.saveRun({ ...run, progress: meter.snapshot() });
  };
  const notify = () => {
    deps.onProgress?.(meter.progress, run);
    // A checkpoint now and then, so the Runs page shows where a closed tab stopped.
    if (now() - lastCheckpoint > CHECKPOINT_MS) void save().catch(() => undefined);
  };
  const stop = async (status: RunRecord['status'], error?: StageError) => {
    run.status = status;
    run.error = error && meter.error(error);
    try {
      await save();
    } catch (e) {
      // The record could not be stored (a full storage, say): the page still learns how the run
      // ended and why; the stored record keeps its last checkpoint, which resumes like a reload.
      const why = errorMessage(e);
      if (run.error) meter.note(`This outcome could not be stored: ${why}`);
      else run.error = meter.error({ kind: 'storage', message: why });
    }
    deps.onProgress?.(meter.progress, run);
    return run;
  };
  // A partial report that stops or fails leaves the run as it was, with why.
  const stopped = () => (prior ? stop(prior.status, prior.error) : stop(signal.reason === 'cancel' ? 'cancelled' : 'paused'));
  const failed = async (error: StageError) => {
    if (!prior) return stop('failed', error);
    await stop(prior.status, prior.error);
    run.partialError = meter.error(error);
    return run;
  };
  return { save, notify, stop, stopped, failed };
}

/**
 * A throw out of a phase as the run stores it: the one error shape (model/app-error.ts), so an
 * AppError or a provider's typed error keeps its kind, and anything else is internal.
 */
function thrownError(e: unknown, where: string): StageError {
  const info = errorInfo(e, where);
  return { kind: info.kind, message: info.message, where: info.where, ...(info.status !== undefined ? { status: info.status } : {}) };
}
