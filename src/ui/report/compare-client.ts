/**
 * "Which signal is best calibrated": the baselines engineer's `compareSignals` over one model's
 * signal columns, run in a web worker because its paired bootstrap (B replicates × every signal)
 * takes seconds on a 40,000-question report. Where no worker starts (the offline HTML file), the
 * same computation runs on the main thread. Results are memoised per row array, so switching
 * views does not recompute; a grade override gives a new row array and a fresh comparison.
 */
import type { ModelReport, ReportSettings, SignalName } from '../../model/report';
import { compareSignals, type CompareOptions, type SignalComparison } from '../../pipeline/signal-comparison';
import { signalColumns } from '../../model/signals';
import type { Result } from '../../model/rows';

export interface CompareRequest {
  id: number;
  columns: Partial<Record<SignalName, Float64Array>>;
  y: Uint8Array;
  options: CompareOptions;
}

export type CompareReply = { id: number; ok: true; comparison: SignalComparison } | { id: number; ok: false; message: string };

/** The document's own bootstrap settings, so the intervals match the headline's. */
export function compareOptions(settings: ReportSettings): CompareOptions {
  return { B: settings.bootstrap.B, seed: settings.bootstrap.seed, bins: settings.bins };
}

/** What compareReportSignals reads, as transferable columns. */
export function compareRequest(id: number, model: Pick<ModelReport, 'questions'>, settings: ReportSettings): CompareRequest {
  return { id, columns: signalColumns(model.questions), y: Uint8Array.from(model.questions, (q) => q.correct), options: compareOptions(settings) };
}

export function runCompare(request: CompareRequest): CompareReply {
  try {
    return { id: request.id, ok: true, comparison: compareSignals(request.columns, request.y, request.options) };
  } catch (err) {
    return { id: request.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, { request: CompareRequest; resolve: (reply: CompareReply) => void }>();
const memo = new WeakMap<ModelReport['questions'], Promise<Result<SignalComparison>>>();

function getWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./compare.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<CompareReply>) => {
      waiting.get(e.data.id)?.resolve(e.data);
      waiting.delete(e.data.id);
    };
    worker.onerror = (e) => {
      // A worker that fails to load answers nobody: the pending requests run here instead.
      e.preventDefault();
      worker?.terminate();
      worker = null;
      for (const { request, resolve } of waiting.values()) resolve(runCompare(request));
      waiting.clear();
    };
  } catch {
    worker = null;
  }
  return worker;
}

function toResult(reply: CompareReply): Result<SignalComparison> {
  return reply.ok
    ? { ok: true, value: reply.comparison }
    : { ok: false, error: { kind: 'compare-signals', message: `The signals could not be compared: ${reply.message}` } };
}

/** The comparison of one model's signals with the document's bootstrap settings. */
export function compareModelSignals(model: ModelReport, settings: ReportSettings): Promise<Result<SignalComparison>> {
  const hit = memo.get(model.questions);
  if (hit) return hit;
  const request = compareRequest(nextId++, model, settings);
  const w = getWorker();
  const done = w
    ? new Promise<Result<SignalComparison>>((resolve) => {
        // The columns are copied, not transferred: the fallback may still need them.
        waiting.set(request.id, { request, resolve: (reply) => resolve(toResult(reply)) });
        w.postMessage(request);
      })
    : Promise.resolve(toResult(runCompare(request)));
  memo.set(model.questions, done);
  return done;
}
