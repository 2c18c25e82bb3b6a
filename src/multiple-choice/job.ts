/**
 * A multiple-choice run (RunSpec.mc) as the run worker executes it: for each model, the repeated
 * ConfidenceBench-style runs (runMcBaseline) and, when samples > 0, Sem-ECE on the same questions
 * (runMcSemEce); then one report document (mcReportDocument per model, models side by side) saved
 * as the run's report. The same library path as `semece mc --report`.
 *
 * Replies are cached like samples (reply-cache.ts): a repeated multiple-choice run, or a paused or
 * interrupted one resumed, reads back every reply it already has and requests only the rest.
 * Progress goes through the run's own meter (pipeline/run-meter.ts): requests, tokens and cost
 * carry over a resume; the questions asked count afresh, replies from the cache as cached.
 */
import { createProvider } from '../providers/index';
import { secretScrubber } from '../providers/secret-scrub';
import type { ChatProvider, CompletionRequest, ProviderErrorInfo } from '../model/provider';
import type { SampleCache } from '../model/sample-cache';
import { runMcBaseline } from './stated-probability-run';
import { runMcSemEce, type McSemResult } from './sem-ece-run';
import { mcReportDocument } from './report-document';
import { toMcQuestions } from './questions';
import type { ReplyCache } from './reply-cache';
import type { ReportDocument } from '../model/report';
import type { RunRepository } from '../model/run-repository';
import { withItsKey, modelLabel, type ModelSpec, type RunKeys, type RunProgress, type RunRecord } from '../model/run-spec';
import type { StageError } from '../model/rows';
import type { PriceTable } from '../model/cost';
import { RunMeter } from '../pipeline/run-meter';

export interface MultipleChoiceRunDeps {
  runs: Pick<RunRepository, 'getRun' | 'saveRun' | 'saveReport'>;
  /** Where replies are kept between runs (the run's sample cache); without it every reply is requested. */
  samples?: SampleCache;
  /** For the cost so far; without it (or without a model's price) the cost is unknown. */
  prices?: PriceTable;
  onProgress?: (progress: RunProgress, run: RunRecord) => void;
}

/** Requests one multiple-choice run sends per model (one per complete() call). */
export function mcRequestsPerModel(questions: number, mc: { runs: number; samples: number; logprobs: boolean }): number {
  return questions * mc.runs + (mc.samples > 0 ? questions * (1 + (mc.logprobs ? 1 : 0)) : 0);
}

function asInfo(e: unknown): ProviderErrorInfo | null {
  return typeof e === 'object' && e !== null && 'kind' in e && 'message' in e ? (e as ProviderErrorInfo) : null;
}

export async function executeMultipleChoiceRun(runId: string, keys: RunKeys, deps: MultipleChoiceRunDeps, signal: AbortSignal): Promise<RunRecord> {
  const stored = await deps.runs.getRun(runId);
  if (!stored?.spec.mc) throw new Error(`no multiple-choice run with id ${runId}`);
  const spec = stored.spec;
  const mc = spec.mc!;
  const set = toMcQuestions(spec.dataset.questions);
  const total = mcRequestsPerModel(set.questions.length, mc) * spec.models.length;
  const meter = new RunMeter(stored.progress, deps.prices, undefined, secretScrubber(Object.values(keys)));
  const progress = meter.progress;
  progress.mc = { runsDone: 0, runsTotal: mc.runs * spec.models.length };
  meter.enterStage('dataset', spec.dataset.questions.length);
  meter.finishStage('dataset');
  // No clustering or grading stage: the chosen letter is the class and is graded against the gold letter.
  for (const s of ['cluster', 'grade', 'score', 'report'] as const) progress.stages[s] = { status: 'waiting', done: 0, total: 0, cached: 0 };
  for (const s of ['cluster', 'grade'] as const) meter.finishStage(s, 'skipped');
  meter.enterStage('sample', total);
  progress.samples = { done: 0, total };
  for (const s of set.skipped) meter.note(`skipped ${s.where}: ${s.reason}`);
  const run: RunRecord = { ...stored, status: 'running', progress, error: undefined, updatedAt: new Date().toISOString() };
  const emit = () => deps.onProgress?.(progress, run);
  const save = async (patch: Partial<RunRecord>) => {
    Object.assign(run, patch, { updatedAt: new Date().toISOString() });
    await deps.runs.saveRun(run);
    emit();
    return run;
  };
  await save({});
  const stopped = () => save({ status: signal.reason === 'pause' ? 'paused' : 'cancelled' });
  const failWith = (error: StageError) => {
    meter.finishStage(progress.stage, 'failed');
    return save({ status: 'failed', error: meter.error(error) });
  };
  if (set.questions.length === 0) return failWith({ kind: 'bad-dataset', message: 'The dataset has no usable multiple-choice question (each needs 2 to 10 options and a gold letter or option text).', where: 'dataset' });

  // A request slot served from the cache: counted as done and cached, never as a request.
  const cache: ReplyCache | undefined = deps.samples
    ? {
        samples: deps.samples,
        onCached: () => {
          progress.samples.done++;
          progress.stages.sample.cached++;
          meter.advance();
          emit();
        },
      }
    : undefined;
  const docs: ReportDocument[] = [];
  for (const [m, model] of spec.models.entries()) {
    const provider = counted(createProvider(withItsKey(model, keys)), model, meter, emit);
    const label = modelLabel(model);
    const settings = { runs: mc.runs, seed: mc.seed, temperature: spec.sampling.temperature, maxTokens: spec.sampling.maxTokens, logprobs: mc.logprobs, signal, cache };
    const base = await runMcBaseline(provider, set.questions, {
      ...settings,
      // Replies (failed ones included) move the request counters; a run counts only once it completed.
      onRunDone: (runsDone) => {
        progress.mc!.runsDone = m * mc.runs + runsDone;
        emit();
      },
    });
    if (signal.aborted) return stopped();
    if (!base.ok) return failWith({ ...base.error, where: `${label}: ${base.error.where ?? ''}` });
    for (const n of base.value.notes) meter.note(`${label}: ${n}`);
    if (base.value.logprob.absence) meter.note(`${label}: logprob signal: ${base.value.logprob.absence}`);
    let sem: McSemResult | undefined;
    if (mc.samples > 0) {
      const s = await runMcSemEce(provider, set.questions, { ...settings, samples: mc.samples, model: label });
      if (signal.aborted) return stopped();
      if (!s.ok) return failWith({ ...s.error, where: `${label}: ${s.error.where ?? ''}` });
      sem = s.value;
    }
    const doc = mcReportDocument({
      model: label,
      provider: model.preset,
      dataset: { name: spec.dataset.name, source: spec.dataset.source },
      baseline: base.value,
      sem,
      settings: { samples: mc.samples, temperature: spec.sampling.temperature, maxTokens: spec.sampling.maxTokens },
    });
    docs.push(doc);
  }
  meter.finishStage('sample');
  // Scoring happened per model above (runMcBaseline, runMcSemEce).
  meter.enterStage('score', spec.models.length);
  meter.finishStage('score');
  meter.enterStage('report', 1);
  emit();
  // Each model's document has the same dataset and settings; the run's report holds them side by side.
  const document: ReportDocument = { ...docs[0], title: spec.title, createdAt: new Date().toISOString(), models: docs.flatMap((d) => d.models) };
  await deps.runs.saveReport(run.id, document);
  meter.finishStage('report');
  return save({ status: 'done', reportId: run.id });
}

/** The provider with every request it sends counted into the run's meter, failures with their cause. */
function counted<P extends ChatProvider & { notes?: () => string[] }>(provider: P, model: ModelSpec, meter: RunMeter, emit: () => void): ChatProvider & { notes?: () => string[] } {
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
        const info = asInfo(e);
        progress.requests.failed++;
        meter.advance();
        if (info?.kind !== 'aborted') meter.error({ kind: info?.kind ?? 'error', message: info?.message ?? String(e), where: `${modelLabel(provider.config)}`, ...(info?.status ? { status: info.status } : {}) });
        throw e;
      } finally {
        emit();
      }
    },
  };
}
