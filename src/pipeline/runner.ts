/**
 * Walks a run through its stages: dataset → sample → cluster → grade → score → report.
 * Every stage first looks in its cache (samples by sample key, clusterings and grades by the
 * keys of stage-cache-keys.ts; exact clustering and alias grading, cheaper than a cache look-up,
 * are recomputed instead), so a resumed run — after a pause, a crash or a reload — recomputes
 * only what is missing, and changing the clusterer recomputes clustering, grading and scoring
 * but never sampling. Pure of DOM: it runs in the run worker and in Node tests alike.
 */
import type { RunRepository } from '../model/run-repository';
import type { PriceTable } from '../model/cost';
import type { StageCache } from '../model/stage-cache';
import { RunMeter } from './run-meter';
import { emptyProgress, keyId, modelLabel, withItsKey, type ModelSpec, type ProgressCounters, type RunKeys, type RunProgress, type RunRecord, type RunSpec } from '../model/run-spec';
import { clusterStage, gradeStage, type ClusterResult, type GradeResult } from './cluster-grade-stages';
import type { RunnerStages, SampledRows, ScoreModelInput } from './stage-ports';
import { priceFor } from '../model/cost';
import type { SampleCache } from '../model/sample-cache';
import { gradeToY, type GradedRow, type StageError } from '../model/rows';
import { reportSettings } from './runner-report';
import { questionFieldsById } from '../model/question-fields';
import { secretScrubber } from '../providers/secret-scrub';

export interface RunnerDeps {
  runs: RunRepository;
  samples: SampleCache;
  stages: StageCache;
  impl: RunnerStages;
  prices?: PriceTable;
  /** Raw progress on every change; the caller throttles. */
  onProgress?(progress: RunProgress, run: RunRecord): void;
  now?: () => number;
}

/** Why a run stops early; passed as the AbortSignal's reason. */
export type StopReason = 'pause' | 'cancel';

export function newRun(spec: RunSpec, id: string = crypto.randomUUID(), now = new Date()): RunRecord {
  const created = now.toISOString();
  return { id, title: spec.title, createdAt: created, updatedAt: created, status: 'queued', spec, progress: emptyProgress(spec.dataset.questions.length * spec.sampling.n * spec.models.length) };
}

const CHECKPOINT_MS = 1000;
/** Excluded questions listed in the run record (the report lists them all). */
const MAX_LISTED_EXCLUSIONS = 1000;

export interface ExecuteOptions {
  /**
   * A partial report of a paused, cancelled or failed run: nothing is sampled; the questions
   * whose samples are all stored are clustered, graded and scored, the report says how many of
   * how many, and the run keeps its status (resuming it later makes the full report).
   */
  partial?: boolean;
}

/**
 * Runs (or resumes) the stored run `runId` to its end, a stop, or a failure, and returns the
 * final record. Never throws for expected failures: they end as status 'failed' with `error`.
 */
export async function executeRun(runId: string, keys: RunKeys, deps: RunnerDeps, signal: AbortSignal, options: ExecuteOptions = {}): Promise<RunRecord> {
  const stored = await deps.runs.getRun(runId);
  if (!stored) throw new Error(`no run with id ${runId}`);
  const run: RunRecord = stored;
  const partial = options.partial === true;
  const prior = { status: stored.status, error: stored.error };
  const now = deps.now ?? (() => Date.now());
  // The run's keys' scrubber: every error and reason the run shows, stores or reports goes through it.
  const scrub = secretScrubber(Object.values(keys));
  const meter = new RunMeter(run.progress, deps.prices, now, scrub);
  const spec = run.spec;
  let lastCheckpoint = 0;

  const save = async () => {
    run.progress = meter.snapshot();
    run.updatedAt = new Date(now()).toISOString();
    lastCheckpoint = now();
    await deps.runs.saveRun(run);
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
      const why = e instanceof Error ? e.message : String(e);
      if (run.error) meter.note(`This outcome could not be stored: ${why}`);
      else run.error = meter.error({ kind: 'storage', message: why });
    }
    deps.onProgress?.(meter.progress, run);
    return run;
  };
  // A partial report that stops or fails leaves the run as it was, with why.
  const stopped = () => (partial ? stop(prior.status, prior.error) : stop(signal.reason === 'cancel' ? 'cancelled' : 'paused'));

  run.status = 'running';
  run.error = undefined;
  // Which providers had a key (their ids only): a reloaded page waits for those keys instead of resuming without them.
  const keyed = new Set([...(run.keyed ?? []), ...Object.keys(keys).filter((k) => keys[k])]);
  if (keyed.size > 0) run.keyed = [...keyed];
  await save();
  notify();

  try {
    const questions = spec.dataset.questions;
    meter.enterStage('dataset', questions.length);
    if (questions.length === 0) return await stop('failed', { kind: 'empty-dataset', message: 'The dataset has no questions.', where: spec.dataset.name });
    meter.finishStage('dataset');

    // Sample: every model side by side, each against its own provider.
    meter.enterStage('sample', questions.length * spec.sampling.n * spec.models.length);
    meter.progress.samples = { done: 0, total: questions.length * spec.sampling.n * spec.models.length };
    const prices = deps.prices ?? {};
    // The sampling counters come from the receipts stored with the samples (exact after a reload);
    // a run whose earlier executions kept none (stored before receipts existed) keeps its checkpoint.
    const receiptKey = (model: ModelSpec) => `${run.id}|${modelLabel(model)}`;
    const fresh = meter.progress.requests.done === 0 && meter.progress.requests.failed === 0 && meter.progress.tokens.input === 0 && meter.progress.tokens.output === 0;
    const before =
      deps.samples.usage && (meter.progress.ledger || fresh)
        ? meter.baseFromReceipts(await Promise.all(spec.models.map(async (m) => ({ usage: await deps.samples.usage!(receiptKey(m)), price: priceFor(prices, m.preset, m.model) }))))
        : structuredClone({ requests: meter.progress.requests, tokens: meter.progress.tokens, cost: meter.progress.cost });
    const counters: ProgressCounters[] = spec.models.map(() => ({ requests: { done: 0, failed: 0, retrying: 0 }, samples: { done: 0, total: 0 }, tokens: { input: 0, output: 0 }, cost: 0, etaMs: null }));
    const sampled = await Promise.all(
      spec.models.map((model, i) =>
        deps.impl.sample({
          dataset: spec.dataset,
          model: withItsKey(model, keys),
          sampling: spec.sampling,
          cache: deps.samples,
          signal,
          price: priceFor(prices, model.preset, model.model),
          onCounters: (c) => {
            counters[i] = c;
            meter.sampleCounters(before, counters);
            notify();
          },
          onError: (error) => {
            meter.error({ ...error, where: `${modelLabel(model)}${error.where ? `, ${error.where}` : ''}` });
            notify();
          },
          onHandled: (event) => {
            meter.handled({ ...event, where: `${modelLabel(model)}${event.where ? `, ${event.where}` : ''}` });
            notify();
          },
          onNote: (note) => meter.note(`${modelLabel(model)}: ${note}`),
          onEffective: (effective) => {
            run.effective = { ...run.effective, [modelLabel(model)]: effective };
          },
          cachedOnly: partial,
          receiptKey: receiptKey(model),
          onModelLoad: (state) => {
            if (meter.progress.stage !== 'sample') return;
            meter.progress.model = state;
            notify();
          },
        }),
      ),
    );
    if (signal.aborted) return await stopped();
    const failed = sampled.find((r) => !r.ok);
    if (failed && !failed.ok) {
      meter.finishStage('sample', 'failed');
      // A partial report with nothing to score leaves the run as it was and says why.
      if (partial) {
        await stop(prior.status, prior.error);
        run.partialError = meter.error(failed.error);
        return run;
      }
      return await stop('failed', failed.error);
    }
    meter.finishStage('sample');
    const sampledRows = sampled.map((r) => (r as { ok: true; value: SampledRows }).value);
    const rowsByModel = sampledRows.map((r) => r.rows);
    for (const [i, r] of sampledRows.entries()) for (const f of r.failed) meter.error({ kind: 'question-failed', message: f.reason, where: `${modelLabel(spec.models[i])}, question ${f.id}` });

    // A model state from an earlier execution (a load cut off by a reload) is stale now.
    delete meter.progress.model;
    let clustering = true;
    const clusterer = deps.impl.clusterer(spec.clustering, keys, {
      onModelLoad: (state) => {
        if (!clustering) return;
        meter.progress.model = state;
        notify();
      },
    });
    const clustered: ClusterResult[] = [];
    meter.enterStage('cluster', rowsByModel.reduce((s, rows) => s + rows.length, 0));
    try {
      for (const rows of rowsByModel) {
        clustered.push(await clusterStage(rows, spec, clusterer, deps.stages, meter, notify, signal));
        if (clustered[clustered.length - 1].stopped) break;
      }
    } finally {
      clustering = false;
    }
    if (signal.aborted) return await stopped();
    // The clusterer's model cannot be had (the hub unreachable): the run stops on that one cause.
    const cannotCluster = clustered.find((c) => c.stopped)?.stopped;
    if (cannotCluster) {
      meter.finishStage('cluster', 'failed');
      return await stop('failed', cannotCluster);
    }
    // A stage that fails for every question fails the run with its cause, never a report of nothing.
    if (clustered.every((c) => c.rows.length === 0)) {
      meter.finishStage('cluster', 'failed');
      const first = clustered.find((c) => c.excluded.length > 0)?.excluded[0];
      return await stop('failed', { kind: 'clustering', message: `Clustering failed for every question, so there is nothing to score. First cause: ${first?.reason ?? 'unknown'}`, where: spec.clustering.method });
    }
    meter.finishStage('cluster');

    const grader = deps.impl.grader(spec.grading, keys);
    meter.enterStage('grade', clustered.reduce((s, c) => s + c.rows.length, 0));
    const graded: GradeResult[] = [];
    for (const c of clustered) graded.push(await gradeStage(c.rows, spec, grader, deps.stages, meter, notify, signal));
    if (signal.aborted) return await stopped();
    if (graded.every((g) => g.rows.every((row) => row.Y === null))) {
      meter.finishStage('grade', 'failed');
      const cause = graded.find((g) => g.excluded.length > 0)?.excluded[0]?.reason.replace(/^grading failed: /, '');
      return await stop('failed', { kind: 'grading', message: `Grading failed for every question, so there is nothing to score.${cause ? ` First cause: ${cause}` : ''}`, where: spec.grading.method });
    }
    meter.finishStage('grade');

    meter.enterStage('score', spec.models.length);
    const overrides = await deps.runs.gradeOverrides(run.id);
    const models: ScoreModelInput[] = spec.models.map((model, i) => {
      const label = modelLabel(model);
      const mine = overrides.get(label);
      return {
        model: label,
        provider: model.preset,
        clustered: clustered[i].rows,
        graded: graded[i].rows.map((g) => {
          const grade = mine?.get(g.id);
          return grade ? { ...g, grade, Y: gradeToY(grade) } : g;
        }),
        // A reason may quote the provider's reply: scrubbed before it goes into the report and the run.
        excluded: [...sampledRows[i].failed, ...clustered[i].excluded, ...graded[i].excluded].map((x) => ({ ...x, reason: scrub(x.reason) })),
        overridden: mine ? [...mine.keys()] : [],
      };
    });
    const document = await deps.impl.score({ title: spec.title, dataset: { name: spec.dataset.name, questions: questions.length, source: spec.dataset.source, ...(spec.dataset.subset ? { subset: spec.dataset.subset } : {}) }, settings: reportSettings(spec), models, fields: questionFieldsById(questions) });
    if (partial) {
      // Counted per question of the dataset: complete when every model has all its samples.
      const unsampled = Math.max(...sampledRows.map((r) => r.unsampled ?? 0));
      document.partial = { questions: questions.length - unsampled, of: questions.length, status: prior.status };
    }
    meter.finishStage('score');

    meter.enterStage('report', 1);
    await deps.runs.saveReport(run.id, document);
    run.reportId = run.id;
    if (partial) run.partialReport = document.partial;
    // What the report leaves out and why, so the run page can offer to try those questions again.
    run.excluded = document.models.flatMap((m) => m.excludedQuestions.slice(0, MAX_LISTED_EXCLUSIONS).map((x) => ({ model: m.model, id: x.id, reason: x.reason })));
    if (run.excluded.length === 0) delete run.excluded;
    meter.finishStage('report');
    if (partial) return await stop(prior.status, prior.error);
    delete run.partialReport;
    return await stop('done');
  } catch (e) {
    if (signal.aborted) return await stopped();
    return await stop('failed', { kind: 'internal', message: e instanceof Error ? e.message : String(e), where: `stage ${meter.progress.stage}` });
  }
}
