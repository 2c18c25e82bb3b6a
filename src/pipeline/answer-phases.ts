/**
 * The phases of an open-answer run, one function each, over the run lifecycle (run-lifecycle.ts):
 * dataset → sample → cluster → grade → score → report. Each phase reads what the one before it
 * left in the run's `AnswerState` and says how it ended; entering, finishing, stopping, failing
 * and saving are the lifecycle's. Every stage first looks in its cache (samples by sample key,
 * clusterings and grades by the keys of stage-cache-keys.ts), so a resumed run recomputes only
 * what is missing.
 */
import type { PriceTable } from '../model/cost';
import { priceFor } from '../model/cost';
import type { ReportDocument } from '../model/report';
import { gradeToY, type StageError } from '../model/rows';
import type { SampleCache } from '../model/sample-cache';
import type { StageCache } from '../model/stage-cache';
import { modelLabel, withItsKey, type ModelSpec, type ProgressCounters } from '../model/run-spec';
import { questionFieldsById } from '../model/question-fields';
import { reportManifest } from '../model/report-manifest';
import type { RunRepository } from '../model/run-repository';
import { clusterStage, gradeStage, type ClusterResult, type GradeResult } from './cluster-grade-stages';
import { DONE, type Phase, type PhaseContext, type PhaseEnd } from './run-lifecycle';
import { reportSettings } from './run-settings';
import type { RunnerStages, SampledRows, ScoreModelInput } from './stage-ports';

/** Excluded questions listed in the run record (the report lists them all). */
const MAX_LISTED_EXCLUSIONS = 1000;

export interface AnswerPhaseDeps {
  runs: RunRepository;
  samples: SampleCache;
  /** Where clusterings and grades are cached between runs (the port; the store implements it). */
  stageCache: StageCache;
  /** The stages themselves: sampling, the clusterer and grader factories, scoring. */
  stages: RunnerStages;
  prices?: PriceTable;
}

/** What each phase leaves for the next. */
interface AnswerState {
  sampled: SampledRows[];
  clustered: ClusterResult[];
  graded: GradeResult[];
  document?: ReportDocument;
}

/** The open-answer run as its list of phases. */
export function answerPhases(ctx: PhaseContext, deps: AnswerPhaseDeps): Phase[] {
  const spec = ctx.spec;
  const state: AnswerState = { sampled: [], clustered: [], graded: [] };
  const samplesTotal = spec.dataset.questions.length * spec.sampling.n * spec.models.length;
  return [
    { stage: 'dataset', total: () => spec.dataset.questions.length, run: async () => datasetPhase(ctx) },
    { stage: 'sample', total: () => samplesTotal, run: () => samplePhase(ctx, deps, state) },
    { stage: 'cluster', total: () => state.sampled.reduce((s, r) => s + r.rows.length, 0), run: () => clusterPhase(ctx, deps, state) },
    { stage: 'grade', total: () => state.clustered.reduce((s, c) => s + c.rows.length, 0), run: () => gradePhase(ctx, deps, state) },
    { stage: 'score', total: () => spec.models.length, run: () => scorePhase(ctx, deps, state) },
    { stage: 'report', total: () => 1, run: () => reportPhase(ctx, deps, state) },
  ];
}

function datasetPhase(ctx: PhaseContext): PhaseEnd {
  if (ctx.spec.dataset.questions.length > 0) return DONE;
  return { status: 'failed', error: { kind: 'empty-dataset', message: 'The dataset has no questions.', where: ctx.spec.dataset.name } };
}

/** `where` prefixed with the model it happened to. */
const atModel = (model: ModelSpec, e: StageError): StageError => ({ ...e, where: `${modelLabel(model)}${e.where ? `, ${e.where}` : ''}` });

/** Every model side by side, each against its own provider. */
async function samplePhase(ctx: PhaseContext, deps: AnswerPhaseDeps, state: AnswerState): Promise<PhaseEnd> {
  const { spec, meter, run } = ctx;
  // An adaptive run's total is an upper bound (the maximum per question) until its questions stop.
  meter.progress.samples = { done: 0, total: spec.dataset.questions.length * spec.sampling.n * spec.models.length, ...(spec.sampling.adaptive ? { upTo: true } : {}) };
  const prices = deps.prices ?? {};
  // The sampling counters come from the receipts stored with the samples (exact after a reload);
  // a run whose earlier executions kept none (stored before receipts existed) keeps its checkpoint.
  const receiptKey = (model: ModelSpec) => `${run.id}|${modelLabel(model)}`;
  const p = meter.progress;
  const fresh = p.requests.done === 0 && p.requests.failed === 0 && p.tokens.input === 0 && p.tokens.output === 0;
  const before =
    deps.samples.usage && (p.ledger || fresh)
      ? meter.baseFromReceipts(await Promise.all(spec.models.map(async (m) => ({ usage: await deps.samples.usage!(receiptKey(m)), price: priceFor(prices, m.preset, m.model) }))))
      : structuredClone({ requests: p.requests, tokens: p.tokens, cost: p.cost });
  const counters: ProgressCounters[] = spec.models.map(() => ({ requests: { done: 0, failed: 0, retrying: 0 }, samples: { done: 0, total: 0 }, tokens: { input: 0, output: 0 }, cost: 0, etaMs: null }));
  const sampled = await Promise.all(
    spec.models.map((model, i) =>
      deps.stages.sample({
        dataset: spec.dataset,
        model: withItsKey(model, ctx.keys),
        sampling: spec.sampling,
        cache: deps.samples,
        signal: ctx.signal,
        price: priceFor(prices, model.preset, model.model),
        onCounters: (c) => {
          counters[i] = c;
          meter.sampleCounters(before, counters);
          ctx.notify();
        },
        onError: (error) => {
          meter.error(atModel(model, error));
          ctx.notify();
        },
        onHandled: (event) => {
          meter.handled(atModel(model, event));
          ctx.notify();
        },
        onNote: (note) => meter.note(`${modelLabel(model)}: ${note}`),
        onEffective: (effective) => {
          run.effective = { ...run.effective, [modelLabel(model)]: effective };
        },
        cachedOnly: ctx.partial,
        receiptKey: receiptKey(model),
        onModelLoad: (loading) => {
          if (meter.progress.stage !== 'sample') return;
          meter.progress.model = loading;
          ctx.notify();
        },
      }),
    ),
  );
  const failed = sampled.find((r) => !r.ok);
  if (failed && !failed.ok) return { status: 'failed', error: failed.error };
  state.sampled = sampled.map((r) => (r as { ok: true; value: SampledRows }).value);
  for (const [i, r] of state.sampled.entries()) for (const f of r.failed) meter.error({ kind: 'question-failed', message: f.reason, where: `${modelLabel(spec.models[i])}, question ${f.id}` });
  return DONE;
}

async function clusterPhase(ctx: PhaseContext, deps: AnswerPhaseDeps, state: AnswerState): Promise<PhaseEnd> {
  const { spec, meter } = ctx;
  // A model state from an earlier execution (a load cut off by a reload) is stale now.
  delete meter.progress.model;
  let clustering = true;
  const clusterer = deps.stages.clusterer(spec.clustering, ctx.keys, {
    onModelLoad: (loading) => {
      if (!clustering) return;
      meter.progress.model = loading;
      ctx.notify();
    },
  });
  try {
    for (const { rows } of state.sampled) {
      const result = await clusterStage(rows, spec, clusterer, deps.stageCache, meter, ctx.notify, ctx.signal);
      state.clustered.push(result);
      if (result.stopped) break;
    }
  } finally {
    clustering = false;
  }
  // The clusterer's model cannot be had (the hub unreachable): the run stops on that one cause.
  const cannotCluster = state.clustered.find((c) => c.stopped)?.stopped;
  if (cannotCluster) return { status: 'failed', error: cannotCluster };
  // A stage that fails for every question fails the run with its cause, never a report of nothing.
  if (state.clustered.every((c) => c.rows.length === 0)) {
    const first = state.clustered.find((c) => c.excluded.length > 0)?.excluded[0];
    return { status: 'failed', error: { kind: 'clustering', message: `Clustering failed for every question, so there is nothing to score. First cause: ${first?.reason ?? 'unknown'}`, where: spec.clustering.method } };
  }
  return DONE;
}

async function gradePhase(ctx: PhaseContext, deps: AnswerPhaseDeps, state: AnswerState): Promise<PhaseEnd> {
  const grader = deps.stages.grader(ctx.spec.grading, ctx.keys);
  for (const c of state.clustered) state.graded.push(await gradeStage(c.rows, ctx.spec, grader, deps.stageCache, ctx.meter, ctx.notify, ctx.signal));
  if (state.graded.every((g) => g.rows.every((row) => row.Y === null))) {
    const cause = state.graded.find((g) => g.excluded.length > 0)?.excluded[0]?.reason.replace(/^grading failed: /, '');
    return { status: 'failed', error: { kind: 'grading', message: `Grading failed for every question, so there is nothing to score.${cause ? ` First cause: ${cause}` : ''}`, where: ctx.spec.grading.method } };
  }
  return DONE;
}

async function scorePhase(ctx: PhaseContext, deps: AnswerPhaseDeps, state: AnswerState): Promise<PhaseEnd> {
  const { spec, run } = ctx;
  const questions = spec.dataset.questions;
  const overrides = await deps.runs.gradeOverrides(run.id);
  const models: ScoreModelInput[] = spec.models.map((model, i) => {
    const label = modelLabel(model);
    const mine = overrides.get(label);
    return {
      model: label,
      provider: model.preset,
      clustered: state.clustered[i].rows,
      graded: state.graded[i].rows.map((g) => {
        const grade = mine?.get(g.id);
        return grade ? { ...g, grade, Y: gradeToY(grade) } : g;
      }),
      // A reason may quote the provider's reply: scrubbed before it goes into the report and the run.
      excluded: [...state.sampled[i].failed, ...state.clustered[i].excluded, ...state.graded[i].excluded].map((x) => ({ ...x, reason: ctx.scrub(x.reason) })),
      overridden: mine ? [...mine.keys()] : [],
    };
  });
  const dataset = { name: spec.dataset.name, questions: questions.length, source: spec.dataset.source, ...(spec.dataset.subset ? { subset: spec.dataset.subset } : {}) };
  const document = await deps.stages.score({ title: spec.title, dataset, settings: reportSettings(spec), models, fields: questionFieldsById(questions) });
  // The prices the run was metered at, so the report prices what adaptive sampling saved as the run did.
  for (const model of spec.models) {
    const price = priceFor(deps.prices ?? {}, model.preset, model.model);
    const scored = document.models.find((m) => m.model === modelLabel(model));
    if (price && scored) scored.price = { input: price.input, output: price.output };
  }
  if (ctx.partial) {
    // Counted per question of the dataset: complete when every model has all its samples.
    const unsampled = Math.max(...state.sampled.map((r) => r.unsampled ?? 0));
    document.partial = { questions: questions.length - unsampled, of: questions.length, status: ctx.prior };
  }
  // The same manifest `semece score --report` writes, so an app run's report can be verified too.
  document.manifest = await reportManifest(document);
  state.document = document;
  return DONE;
}

async function reportPhase(ctx: PhaseContext, deps: AnswerPhaseDeps, state: AnswerState): Promise<PhaseEnd> {
  const { run } = ctx;
  const document = state.document!;
  await deps.runs.saveReport(run.id, document);
  run.reportId = run.id;
  if (ctx.partial) run.partialReport = document.partial;
  // What the report leaves out and why, so the run page can offer to try those questions again.
  run.excluded = document.models.flatMap((m) => m.excludedQuestions.slice(0, MAX_LISTED_EXCLUSIONS).map((x) => ({ model: m.model, id: x.id, reason: x.reason })));
  if (run.excluded.length === 0) delete run.excluded;
  return DONE;
}
