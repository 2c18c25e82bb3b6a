/**
 * Recomputes a model's metrics after a grade override in a web worker, so the page stays
 * responsive on large reports. Where no worker can start (e.g. a page opened from a file that
 * forbids workers), the same computation runs on the main thread from then on.
 */
import * as Comlink from 'comlink';
import type { ModelMetrics, ModelReport, ReportQuestion, ReportSettings, SignalComparison, SignalName } from '../../model/report';
import type { SliceAnalysis } from '../../pipeline/slices';
import type { ScoreOptions } from '../../pipeline/score-stage';
import type { CompareOptions } from '../../pipeline/signal-comparison';
import type { EceInferenceMetrics, InferenceSettings } from '../../pipeline/ece-inference-metrics';
import type { Result } from '../../model/rows';
import { connectApi, WORKER_UNAVAILABLE } from '../../workers/worker-connection';
import { packComparison, packRows, transferables, type PackedRows } from './recompute-rows';
import { errorText } from '../error-text';

export interface RecomputeRequest {
  rows: PackedRows;
  excluded: number;
  signals: SignalName[];
  options: ScoreOptions;
}

/** A model's signal columns and grades, for the comparison of a report saved before it was stored. */
export interface CompareRequest {
  columns: Partial<Record<SignalName, Float64Array>>;
  correct: Uint8Array;
  options: CompareOptions;
}

/** A model's rows, for the ECE interval of a report saved before it was stored. */
export interface InferRequest {
  rows: PackedRows;
  signals: SignalName[];
  settings: InferenceSettings;
}

/** What recompute.worker.ts serves. */
export interface RecomputeWorkerApi {
  recompute(request: RecomputeRequest): Result<ModelMetrics>;
  compare(request: CompareRequest): Result<SignalComparison>;
  infer(request: InferRequest): Result<EceInferenceMetrics>;
  slices(request: SliceRequest): Result<SliceAnalysis>;
}

/** The Slices tab's request (slices-client.ts). */
export interface SliceRequest {
  questions: ReportQuestion[];
  column: string;
  signals: SignalName[];
  options: { bins: number; seed: number };
}

/** The worker's API for callers in their own lazily loaded module (slices-client.ts); null once no worker can start. */
export const recomputeWorker = () => (mainThreadOnly ? null : connection.api);
/** Where no worker can start, every later call runs on the main thread. */
export const noRecomputeWorker = () => void (mainThreadOnly = true);



const connection = connectApi<RecomputeWorkerApi>(() => new Worker(new URL('./recompute.worker.ts', import.meta.url), { type: 'module' }), { name: 'recompute' });
let mainThreadOnly = false;

const message = (err: unknown) => (errorText(err));
const failed = (why: string): Result<ModelMetrics> => ({ ok: false, error: { kind: 'override', message: `The metrics could not be recomputed: ${why}` } });

/**
 * The scorer, loaded only where no worker starts: a static import would put it, and the
 * bootstrap under it, in the JavaScript of every page that shows a report (the first page too).
 */
const mainThreadScoring = () => Promise.all([import('../../pipeline/overrides-recompute'), import('../../pipeline/signal-comparison')]);

async function onMainThread(model: ModelReport, settings: ReportSettings): Promise<Result<ModelMetrics>> {
  try {
    const [{ recomputeMetrics }] = await mainThreadScoring();
    return { ok: true, value: recomputeMetrics(model, settings) };
  } catch (err) {
    return failed(message(err));
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
    return reply.ok ? reply : failed(reply.error.message);
  } catch (err) {
    if ((err as { kind?: string }).kind !== WORKER_UNAVAILABLE) return failed(message(err));
    mainThreadOnly = true;
    return onMainThread(model, settings);
  }
}

const compareFailed = (why: string): Result<SignalComparison> => ({ ok: false, error: { kind: 'compare', message: `The signals could not be compared: ${why}` } });

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
      return reply.ok ? reply : compareFailed(reply.error.message);
    } catch (err) {
      if ((err as { kind?: string }).kind !== WORKER_UNAVAILABLE) return compareFailed(message(err));
      mainThreadOnly = true;
    }
  }
  try {
    const [, { compareReportSignals }] = await mainThreadScoring();
    return { ok: true, value: compareReportSignals(model, options) };
  } catch (err) {
    return compareFailed(message(err));
  }
}

const inferFailed = (why: string): Result<EceInferenceMetrics> => ({ ok: false, error: { kind: 'infer', message: `The ECE intervals could not be computed: ${why}` } });

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
      return reply.ok ? reply : inferFailed(reply.error.message);
    } catch (err) {
      if ((err as { kind?: string }).kind !== WORKER_UNAVAILABLE) return inferFailed(message(err));
      mainThreadOnly = true;
    }
  }
  try {
    const { eceInferenceOfRows } = await import('../../pipeline/ece-inference-metrics');
    return { ok: true, value: eceInferenceOfRows(model.questions, signals, inference) };
  } catch (err) {
    return inferFailed(message(err));
  }
}
