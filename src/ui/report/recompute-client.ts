/**
 * Recomputes a model's metrics after a grade override in a web worker, so the page stays
 * responsive on large reports. Where no worker can be started (e.g. a page opened from a
 * file that forbids workers), the same computation runs on the main thread.
 */
import type { ModelMetrics, ModelReport, ReportSettings, SignalName } from '../../model/report';
import type { ScoreOptions } from '../../pipeline/score';
import { recomputeMetrics } from '../../pipeline/overrides-recompute';
import type { Result } from '../../model/rows';
import { packRows, transferables, type PackedRows } from './recompute-rows';

export interface RecomputeRequest {
  id: number;
  rows: PackedRows;
  excluded: number;
  signals: SignalName[];
  options: ScoreOptions;
}

export type RecomputeReply = { id: number; ok: true; metrics: ModelMetrics } | { id: number; ok: false; message: string };

let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, (reply: RecomputeReply) => void>();

function getWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./recompute.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<RecomputeReply>) => {
      waiting.get(e.data.id)?.(e.data);
      waiting.delete(e.data.id);
    };
    worker.onerror = (e) => {
      // A worker that fails to load answers nobody: fail the pending requests over to the main thread.
      e.preventDefault();
      worker?.terminate();
      worker = null;
      for (const [id, resolve] of waiting) resolve({ id, ok: false, message: 'worker-failed' });
      waiting.clear();
    };
  } catch {
    worker = null;
  }
  return worker;
}

function onMainThread(model: ModelReport, settings: ReportSettings): Result<ModelMetrics> {
  try {
    return { ok: true, value: recomputeMetrics(model, settings) };
  } catch (err) {
    return { ok: false, error: { kind: 'override', message: `The metrics could not be recomputed: ${err instanceof Error ? err.message : String(err)}` } };
  }
}

/** The model's metrics recomputed from its rows with the document's settings. */
export function recomputeModelMetrics(model: ModelReport, settings: ReportSettings): Promise<Result<ModelMetrics>> {
  const w = getWorker();
  if (!w) return Promise.resolve(onMainThread(model, settings));
  const signals = Object.keys(model.metrics.signals) as SignalName[];
  const rows = packRows(model.questions, signals);
  const id = nextId++;
  const request: RecomputeRequest = {
    id,
    rows,
    excluded: model.metrics.excluded,
    signals,
    options: { bins: settings.bins, B: settings.bootstrap.B, bootstrapSeed: settings.bootstrap.seed },
  };
  return new Promise((resolve) => {
    waiting.set(id, (reply) => {
      if (reply.ok) resolve({ ok: true, value: reply.metrics });
      else if (reply.message === 'worker-failed') resolve(onMainThread(model, settings));
      else resolve({ ok: false, error: { kind: 'override', message: `The metrics could not be recomputed: ${reply.message}` } });
    });
    w.postMessage(request, transferables(rows));
  });
}
