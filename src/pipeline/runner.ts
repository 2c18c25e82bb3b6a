/**
 * An open-answer run: its phases (answer-phases.ts: dataset → sample → cluster → grade → score →
 * report) over the one run lifecycle (run-lifecycle.ts). Every stage first looks in its cache, so
 * a resumed run — after a pause, a crash or a reload — recomputes only what is missing, and
 * changing the clusterer recomputes clustering, grading and scoring but never sampling. Pure of
 * DOM and written against the ports of model/: it runs in the run worker and in Node tests alike.
 */
import { emptyProgress, type RunKeys, type RunRecord, type RunSpec } from '../model/run-spec';
import { runPhases, type LifecycleDeps, type LifecycleOptions } from './run-lifecycle';
import { answerPhases, type AnswerPhaseDeps } from './answer-phases';

export type RunnerDeps = LifecycleDeps & AnswerPhaseDeps;

/** Why a run stops early; passed as the AbortSignal's reason. */
export type StopReason = 'pause' | 'cancel';

export function newRun(spec: RunSpec, id: string = crypto.randomUUID(), now = new Date()): RunRecord {
  const created = now.toISOString();
  return { id, title: spec.title, createdAt: created, updatedAt: created, status: 'queued', spec, progress: emptyProgress(spec.dataset.questions.length * spec.sampling.n * spec.models.length) };
}

/**
 * `partial`: a partial report of a paused, cancelled or failed run: nothing is sampled; the
 * questions whose samples are all stored are clustered, graded and scored, the report says how
 * many of how many, and the run keeps its status (resuming it later makes the full report).
 */
export type ExecuteOptions = LifecycleOptions;

/**
 * Runs (or resumes) the stored run `runId` to its end, a stop, or a failure, and returns the
 * final record. Never throws for expected failures: they end as status 'failed' with `error`.
 */
export function executeRun(runId: string, keys: RunKeys, deps: RunnerDeps, signal: AbortSignal, options: ExecuteOptions = {}): Promise<RunRecord> {
  return runPhases(runId, keys, deps, signal, (ctx) => answerPhases(ctx, deps), options);
}
