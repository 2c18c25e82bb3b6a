/**
 * A multiple-choice run (RunSpec.mc) as its list of phases over the one run lifecycle
 * (pipeline/run-lifecycle.ts, the same as an open-answer run's): the dataset read into
 * multiple-choice questions; no clustering or grading (the chosen letter is the class and is
 * graded against the gold letter); sampling, each model's repeated ConfidenceBench-style runs
 * (runMcBaseline) and, when samples > 0, Sem-ECE on the same questions (runMcSemEce); scoring, one
 * report section per model with the spec's scoring settings; the report, models side by side.
 * The run worker and `semece mc` both run these phases.
 *
 * Replies are cached like samples (reply-cache.ts): a repeated multiple-choice run, or a paused or
 * interrupted one resumed, reads back every reply it already has and requests only the rest.
 * Progress goes through the run's meter: requests, tokens and cost carry over a resume; the
 * questions asked count afresh, replies from the cache as cached. A server that cannot be reached
 * stops the run on that one cause (pipeline/unreachable.ts), counted by requests, never by clock.
 */
import { createProvider } from '../providers/create-provider';
import type { ChatProvider, CompletionRequest, ProviderConfig } from '../model/provider';
import { errorInfo } from '../model/app-error';
import type { SampleCache } from '../model/sample-cache';
import { runMcBaseline, type McRunResult } from './stated-probability-run';
import { runMcSemEce, type McSemResult } from './sem-ece-run';
import { mcReportDocument } from './report-document';
import { toMcQuestions } from './mc-questions';
import type { McQuestion } from './prompt';
import type { ReplyCache } from './reply-cache';
import type { ReportDocument } from '../model/report';
import { withItsKey, modelLabel, scoringOf, type ModelSpec, type RunKeys, type RunRecord } from '../model/run-spec';
import type { StageError } from '../model/rows';
import type { RunMeter } from '../pipeline/run-meter';
import { DONE, runPhases, type LifecycleDeps, type Phase, type PhaseContext, type PhaseEnd } from '../pipeline/run-lifecycle';
import { StopWhenUnreachable } from '../pipeline/unreachable';
import { scoreOptionsFor } from '../pipeline/score-stage';

type McProvider = ChatProvider & { notes?: () => string[] };

/** One model's results, as the sample phase leaves them. */
export interface McModelResults {
  model: ModelSpec;
  /** The name the model goes by in the report. */
  label: string;
  baseline: McRunResult;
  sem?: McSemResult;
}

export interface MultipleChoiceRunDeps extends LifecycleDeps {
  /** Where replies are kept between runs (the run's sample cache); without it every reply is requested. */
  samples?: SampleCache;
  /** How a model's provider is made (the CLI passes its own HTTP client); createProvider by default. */
  provider?: (config: ProviderConfig) => McProvider;
  /** The name a model goes by in the report: its `preset/model` label by default. */
  label?: (model: ModelSpec) => string;
  /** Each model's results once its sampling is complete (the CLI writes its row files from these). */
  onModel?: (results: McModelResults) => void;
}

/** Requests one multiple-choice run sends per model (one per complete() call). */
export function mcRequestsPerModel(questions: number, mc: { runs: number; samples: number; logprobs: boolean }): number {
  return questions * mc.runs + (mc.samples > 0 ? questions * (1 + (mc.logprobs ? 1 : 0)) : 0);
}

export function executeMultipleChoiceRun(runId: string, keys: RunKeys, deps: MultipleChoiceRunDeps, signal: AbortSignal): Promise<RunRecord> {
  return runPhases(runId, keys, deps, signal, (ctx) => mcPhases(ctx, deps), { accepts: (run) => run.spec.mc !== undefined });
}

/** The multiple-choice run as its list of phases. */
function mcPhases(ctx: PhaseContext, deps: MultipleChoiceRunDeps): Phase[] {
  const { spec } = ctx;
  const mc = spec.mc!;
  const set = toMcQuestions(spec.dataset.questions);
  const results: McModelResults[] = [];
  let document: ReportDocument | undefined;
  return [
    { stage: 'dataset', total: () => spec.dataset.questions.length, run: async () => datasetPhase(ctx, set) },
    { stage: 'cluster', skipped: true },
    { stage: 'grade', skipped: true },
    { stage: 'sample', total: () => mcRequestsPerModel(set.questions.length, mc) * spec.models.length, run: () => samplePhase(ctx, deps, set.questions, results) },
    {
      stage: 'score',
      total: () => spec.models.length,
      run: async () => {
        document = scorePhase(ctx, results);
        return DONE;
      },
    },
    {
      stage: 'report',
      total: () => 1,
      run: async () => {
        await deps.runs.saveReport(ctx.run.id, document!);
        ctx.run.reportId = ctx.run.id;
        return DONE;
      },
    },
  ];
}

function datasetPhase(ctx: PhaseContext, set: ReturnType<typeof toMcQuestions>): PhaseEnd {
  const { meter, spec } = ctx;
  meter.progress.mc = { runsDone: 0, runsTotal: spec.mc!.runs * spec.models.length };
  for (const s of ['score', 'report'] as const) meter.progress.stages[s] = { status: 'waiting', done: 0, total: 0, cached: 0 };
  for (const s of set.skipped) meter.note(`skipped ${s.where}: ${s.reason}`);
  if (set.questions.length > 0) return DONE;
  return { status: 'failed', error: { kind: 'bad-dataset', message: 'The dataset has no usable multiple-choice question (each needs 2 to 10 options and a gold letter or option text).', where: 'dataset' } };
}

const atModel = (label: string, e: StageError): StageError => ({ ...e, where: `${label}: ${e.where ?? ''}` });

async function samplePhase(ctx: PhaseContext, deps: MultipleChoiceRunDeps, questions: McQuestion[], results: McModelResults[]): Promise<PhaseEnd> {
  const { spec, meter, signal } = ctx;
  const mc = spec.mc!;
  const progress = meter.progress;
  progress.samples = { done: 0, total: progress.stages.sample.total };
  // A request slot served from the cache: counted as done and cached, never as a request.
  const cache: ReplyCache | undefined = deps.samples
    ? {
        samples: deps.samples,
        onCached: () => {
          progress.samples.done++;
          progress.stages.sample.cached++;
          meter.advance();
          ctx.notify();
        },
      }
    : undefined;
  for (const [m, model] of spec.models.entries()) {
    const watched = new StopWhenUnreachable((deps.provider ?? createProvider)(withItsKey(model, ctx.keys)), model.concurrency ?? spec.sampling.concurrency);
    const provider = counted(watched, model, meter, ctx.notify);
    const label = (deps.label ?? modelLabel)(model);
    const settings = { runs: mc.runs, seed: mc.seed, temperature: spec.sampling.temperature, maxTokens: spec.sampling.maxTokens, logprobs: mc.logprobs, signal, cache };
    const base = await runMcBaseline(provider, questions, {
      ...settings,
      // Replies (failed ones included) move the request counters; a run counts only once it completed.
      onRunDone: (runsDone) => {
        progress.mc!.runsDone = m * mc.runs + runsDone;
        ctx.notify();
      },
    });
    // The server gone is the one cause, said once, whatever the questions in flight ended with.
    if (watched.stopped) return { status: 'failed', error: atModel(label, watched.stopped) };
    if (!base.ok) return { status: 'failed', error: atModel(label, base.error) };
    if (signal.aborted) return DONE;
    for (const n of base.value.notes) meter.note(`${label}: ${n}`);
    if (base.value.logprob.absence) meter.note(`${label}: logprob signal: ${base.value.logprob.absence}`);
    let sem: McSemResult | undefined;
    if (mc.samples > 0) {
      const s = await runMcSemEce(provider, questions, { ...settings, samples: mc.samples, model: label });
      if (watched.stopped) return { status: 'failed', error: atModel(label, watched.stopped) };
      if (!s.ok) return { status: 'failed', error: atModel(label, s.error) };
      if (signal.aborted) return DONE;
      sem = s.value;
    }
    results.push({ model, label, baseline: base.value, sem });
    deps.onModel?.(results[results.length - 1]);
  }
  return DONE;
}

/** One report section per model, scored with the spec's scoring settings; the run's report holds them side by side. */
function scorePhase(ctx: PhaseContext, results: McModelResults[]): ReportDocument {
  const { spec } = ctx;
  const score = scoreOptionsFor(scoringOf(spec));
  const docs = results.map((r) =>
    mcReportDocument({
      model: r.label,
      provider: r.model.preset,
      dataset: { name: spec.dataset.name, source: spec.dataset.source },
      baseline: r.baseline,
      sem: r.sem,
      settings: { samples: spec.mc!.samples, temperature: spec.sampling.temperature, maxTokens: spec.sampling.maxTokens },
      score,
    }),
  );
  // Each model's document has the same dataset and settings.
  return { ...docs[0], title: spec.title, createdAt: new Date(ctx.now()).toISOString(), models: docs.flatMap((d) => d.models) };
}

/** The provider with every request it sends counted into the run's meter, failures with their cause. */
function counted(provider: McProvider, model: ModelSpec, meter: RunMeter, notify: () => void): McProvider {
  const progress = meter.progress;
  return {
    config: provider.config,
    notes: provider.notes ? () => provider.notes!() : undefined,
    async complete(request: CompletionRequest) {
      try {
        const c = await provider.complete(request);
        progress.requests.done++;
        progress.samples.done++;
        meter.addUsage(model, c.usage);
        meter.advance();
        return c;
      } catch (e) {
        // The one error shape (model/app-error.ts): a provider's failure keeps its kind and status.
        const info = errorInfo(e);
        progress.requests.failed++;
        meter.advance();
        if (info.kind !== 'aborted') meter.error({ kind: info.kind, message: info.message, where: modelLabel(provider.config), ...(info.status ? { status: info.status } : {}) });
        throw e;
      } finally {
        notify();
      }
    },
  };
}
