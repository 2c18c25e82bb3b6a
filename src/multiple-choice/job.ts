/**
 * A multiple-choice run (RunSpec.mc) as the run worker executes it: for each model, the repeated
 * ConfidenceBench-style runs (runMcBaseline) and, when samples > 0, Sem-ECE on the same questions
 * (runMcSemEce); then one report document (mcReportDocument per model, models side by side) saved
 * as the run's report. The same library path as `semece mc --report`.
 *
 * Replies are not cached: a paused or interrupted multiple-choice run starts again from the
 * beginning when resumed (its runs are cheap: one short reply per question per run).
 */
import { createProvider } from '../providers/index';
import type { ChatProvider, CompletionRequest, ProviderErrorInfo } from '../model/provider';
import { runMcBaseline } from './stated-probability-run';
import { runMcSemEce, type McSemResult } from './sem-ece-run';
import { mcReportDocument } from './report-document';
import { toMcQuestions } from './questions';
import type { ReportDocument } from '../model/report';
import type { RunStore } from '../store/runs';
import { emptyProgress, withItsKey, modelLabel, type ModelSpec, type RunKeys, type RunProgress, type RunRecord } from '../model/run-spec';
import type { StageError } from '../model/rows';
import { costOf, priceFor, type PriceTable } from '../model/cost';

export interface McJobDeps {
  runs: Pick<RunStore, 'getRun' | 'saveRun' | 'saveReport'>;
  /** For the cost so far; without it (or without a model's price) the cost is unknown. */
  prices?: PriceTable;
  onProgress?: (progress: RunProgress, run: RunRecord) => void;
}

const MAX_ERRORS = 50;

/** Requests one multiple-choice run sends per model (one per complete() call). */
export function mcRequestsPerModel(questions: number, mc: { runs: number; samples: number; logprobs: boolean }): number {
  return questions * mc.runs + (mc.samples > 0 ? questions * (1 + (mc.logprobs ? 1 : 0)) : 0);
}

function asInfo(e: unknown): ProviderErrorInfo | null {
  return typeof e === 'object' && e !== null && 'kind' in e && 'message' in e ? (e as ProviderErrorInfo) : null;
}

export async function executeMcJob(runId: string, keys: RunKeys, deps: McJobDeps, signal: AbortSignal): Promise<RunRecord> {
  const stored = await deps.runs.getRun(runId);
  if (!stored?.spec.mc) throw new Error(`no multiple-choice run with id ${runId}`);
  const spec = stored.spec;
  const mc = spec.mc!;
  const set = toMcQuestions(spec.dataset.questions);
  const perModel = mcRequestsPerModel(set.questions.length, mc);
  const progress: RunProgress = { ...emptyProgress(perModel * spec.models.length), stage: 'sample', mc: { runsDone: 0, runsTotal: mc.runs * spec.models.length } };
  progress.stages.dataset = { status: 'done', done: spec.dataset.questions.length, total: spec.dataset.questions.length, cached: 0 };
  progress.stages.sample = { status: 'running', done: 0, total: perModel * spec.models.length, cached: 0 };
  // No clustering or grading stage: the chosen letter is the class and is graded against the gold letter.
  for (const s of ['cluster', 'grade'] as const) progress.stages[s].status = 'skipped';
  progress.cost = 0;
  for (const s of set.skipped) progress.notes.push(`skipped ${s.where}: ${s.reason}`);
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
    progress.stages[progress.stage].status = 'failed';
    progress.errors.push(error);
    return save({ status: 'failed', error });
  };
  if (set.questions.length === 0) return failWith({ kind: 'bad-dataset', message: 'The dataset has no usable multiple-choice question (each needs 2 to 10 options and a gold letter or option text).', where: 'dataset' });

  const docs: ReportDocument[] = [];
  for (const [m, model] of spec.models.entries()) {
    const price = deps.prices ? priceFor(deps.prices, model.preset, model.model) : null;
    const provider = counted(createProvider(withItsKey(model, keys)), progress, price, emit);
    const label = modelLabel(model);
    const settings = { runs: mc.runs, seed: mc.seed, temperature: spec.sampling.temperature, maxTokens: spec.sampling.maxTokens, logprobs: mc.logprobs, signal };
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
    progress.notes.push(...base.value.notes.map((n) => `${label}: ${n}`));
    if (base.value.logprob.absence) progress.notes.push(`${label}: logprob signal: ${base.value.logprob.absence}`);
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
  progress.stages.sample.status = 'done';
  // Scoring happened per model above (runMcBaseline, runMcSemEce).
  progress.stages.score = { status: 'done', done: spec.models.length, total: spec.models.length, cached: 0 };
  progress.stage = 'report';
  progress.stages.report = { status: 'running', done: 0, total: 1, cached: 0 };
  emit();
  // Each model's document has the same dataset and settings; the run's report holds them side by side.
  const document: ReportDocument = { ...docs[0], title: spec.title, createdAt: new Date().toISOString(), models: docs.flatMap((d) => d.models) };
  await deps.runs.saveReport(run.id, document);
  progress.stages.report = { status: 'done', done: 1, total: 1, cached: 0 };
  return save({ status: 'done', reportId: run.id });
}

/** The provider with every request counted into the progress, failures with their cause. */
function counted<P extends ChatProvider & { notes?: () => string[] }>(provider: P, progress: RunProgress, price: ReturnType<typeof priceFor>, emit: () => void): ChatProvider & { notes?: () => string[] } {
  return {
    config: provider.config,
    notes: provider.notes ? () => provider.notes!() : undefined,
    async complete(request: CompletionRequest) {
      try {
        const c = await provider.complete(request);
        progress.requests.done++;
        progress.samples.done++;
        progress.tokens.input += c.usage.inputTokens;
        progress.tokens.output += c.usage.outputTokens;
        const cost = costOf({ input: c.usage.inputTokens, output: c.usage.outputTokens }, price);
        progress.cost = progress.cost === null || cost === null ? null : progress.cost + cost;
        progress.stages.sample.done++;
        return c;
      } catch (e) {
        const info = asInfo(e);
        progress.requests.failed++;
        progress.stages.sample.done++;
        if (info?.kind !== 'aborted') {
          progress.errors.push({ kind: info?.kind ?? 'error', message: info?.message ?? String(e), where: `${modelLabel(provider.config)}`, ...(info?.status ? { status: info.status } : {}) });
          if (progress.errors.length > MAX_ERRORS) progress.errors.splice(0, progress.errors.length - MAX_ERRORS);
        }
        throw e;
      } finally {
        emit();
      }
    },
  };
}
