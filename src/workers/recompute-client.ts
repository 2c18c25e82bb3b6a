/**
 * The page's handle on the recompute worker (recompute-api.ts): a model's metrics recomputed
 * after a grade override, and the signal comparison and ECE intervals of a report saved before
 * they were stored, so the page stays responsive on large reports. Where no worker can start
 * (e.g. a page opened from a file that forbids workers, as the offline HTML report may), the same
 * computation runs on the main thread from then on, its modules loaded only then.
 */
import * as Comlink from 'comlink';
import type { ModelMetrics, ModelReport, ReportSettings, SignalComparison, SignalName } from '../model/report';
import type { CompareOptions } from '../pipeline/signal-comparison';
import type { EceInferenceMetrics } from '../pipeline/ece-inference-metrics';
import type { Result } from '../model/rows';
import { errorInfo, errorMessage } from '../model/app-error';
import { connectApi, WORKER_UNAVAILABLE } from './worker-connection';
import { packComparison, packRows, transferables } from './recompute-rows';
import type { RecomputeRequest, RecomputeWorkerApi } from './recompute-api';

const connection = connectApi<RecomputeWorkerApi>(() => new Worker(new URL('./recompute.worker.ts', import.meta.url), { type: 'module' }), { name: 'recompute' });
let mainThreadOnly = false;

/** The worker's API for callers in their own lazily loaded module (slices-client.ts); null once no worker can start. */
export const recomputeWorker = () => (mainThreadOnly ? null : connection.api);
/** Where no worker can start, every later call runs on the main thread. */
export const noRecomputeWorker = () => void (mainThreadOnly = true);

/** Whether `err` says the worker could not start (then every later call runs on the main thread). */
export const unavailable = (err: unknown) => (err as { kind?: string } | null)?.kind === WORKER_UNAVAILABLE;

/**
 * A failure in the one error shape (model/app-error.ts): `kind` names what failed, the message
 * says what could not be done with the cause's own words after it, and where and the detail are
 * the cause's; the page shows it through ui/error-text.ts.
 */
export function recomputeFailure(kind: string, what: string, cause: unknown): Result<never> {
  return { ok: false, error: { ...errorInfo(cause), kind, message: `${what}: ${errorMessage(cause)}` } };
}

const failed = (cause: unknown) => recomputeFailure('override', 'The metrics could not be recomputed', cause);

/**
 * The scorer, loaded only where no worker starts: a static import would put it, and the
 * bootstrap under it, in the JavaScript of every page that shows a report (the first page too).
 */
const mainThreadScoring = () => Promise.all([import('../pipeline/overrides-recompute'), import('../pipeline/signal-comparison')]);

async function onMainThread(model: ModelReport, settings: ReportSettings): Promise<Result<ModelMetrics>> {
  try {
    const [{ recomputeMetrics }] = await mainThreadScoring();
    return { ok: true, value: recomputeMetrics(model, settings) };
  } catch (err) {
    return failed(err);
  }
}

/** The model's metrics recomputed from its rows with the document's settings. */
export async function recomputeModelMetrics(model: ModelReport, settings: ReportSettings): Promise<Result<ModelMetrics>> {
  if (mainThreadOnly) return onMainThread(model, settings);
  const signals = Object.keys(model.metrics.signals) as SignalName[];
  const rows = packRows(model.questions, signals);
  const request: RecomputeRequest = {
    rows,
    excluded: model.metrics.excluded,
    signals,
    options: { bins: settings.bins, B: settings.bootstrap.B, bootstrapSeed: settings.bootstrap.seed },
  };
  try {
    const reply = await connection.api.recompute(Comlink.transfer(request, transferables(rows)));
    return reply.ok ? reply : failed(reply.error);
  } catch (err) {
    if (!unavailable(err)) return failed(err);
    mainThreadOnly = true;
    return onMainThread(model, settings);
  }
}

const compareFailed = (cause: unknown) => recomputeFailure('compare', 'The signals could not be compared', cause);

/**
 * The comparison of every signal of one model's rows (pipeline/signal-comparison.ts), in the
 * worker: its paired bootstrap over a 177,000-row report takes seconds, which on the main thread
 * froze the page the report had just opened in.
 */
export async function compareModelSignals(model: ModelReport, options: CompareOptions): Promise<Result<SignalComparison>> {
  if (!mainThreadOnly) {
    const { columns, correct } = packComparison(model.questions);
    const buffers = [correct.buffer as ArrayBuffer, ...Object.values(columns).map((c) => c!.buffer as ArrayBuffer)];
    try {
      const reply = await connection.api.compare(Comlink.transfer({ columns, correct, options }, buffers));
      return reply.ok ? reply : compareFailed(reply.error);
    } catch (err) {
      if (!unavailable(err)) return compareFailed(err);
      mainThreadOnly = true;
    }
  }
  try {
    const [, { compareReportSignals }] = await mainThreadScoring();
    return { ok: true, value: compareReportSignals(model, options) };
  } catch (err) {
    return compareFailed(err);
  }
}

const inferFailed = (cause: unknown) => recomputeFailure('infer', 'The ECE intervals could not be computed', cause);

/**
 * Each signal's ECE interval, calibration test and consistency bands (overall and per regime)
 * for a report saved before scoring stored them, from its rows with its settings, in the worker
 * (a few hundred ms on 40,000 rows, the page's main thread spared).
 */
export async function inferModelEce(model: ModelReport, settings: ReportSettings): Promise<Result<EceInferenceMetrics>> {
  const signals = Object.keys(model.metrics.signals) as SignalName[];
  const inference = { bins: settings.bins, seed: settings.bootstrap.seed };
  if (!mainThreadOnly) {
    const rows = packRows(model.questions, signals);
    try {
      const reply = await connection.api.infer(Comlink.transfer({ rows, signals, settings: inference }, transferables(rows)));
      return reply.ok ? reply : inferFailed(reply.error);
    } catch (err) {
      if (!unavailable(err)) return inferFailed(err);
      mainThreadOnly = true;
    }
  }
  try {
    const { eceInferenceOfRows } = await import('../pipeline/ece-inference-metrics');
    return { ok: true, value: eceInferenceOfRows(model.questions, signals, inference) };
  } catch (err) {
    return inferFailed(err);
  }
}
