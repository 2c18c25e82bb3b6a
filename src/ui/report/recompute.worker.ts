/// <reference lib="webworker" />
/**
 * Recomputes a model's metrics, and compares the signals of a report saved before the comparison
 * was stored, off the main thread (a 40,000-row bootstrap takes seconds).
 */
import { boundedModelMetrics } from '../../pipeline/overrides-recompute';
import { compareDocumentColumns } from '../../pipeline/signal-comparison';
import { exposeApi } from '../../workers/worker-connection';
import { unpackRows } from './recompute-rows';
import type { RecomputeWorkerApi } from './recompute-client';

const api: RecomputeWorkerApi = {
  recompute({ rows, excluded, signals, options }) {
    try {
      return { ok: true, value: boundedModelMetrics(unpackRows(rows), { excluded, signals }, options) };
    } catch (err) {
      return { ok: false, error: { kind: 'override', message: err instanceof Error ? err.message : String(err), where: 'recompute worker' } };
    }
  },
  compare({ columns, correct, options }) {
    try {
      return { ok: true, value: compareDocumentColumns(columns, correct, options) };
    } catch (err) {
      return { ok: false, error: { kind: 'compare', message: err instanceof Error ? err.message : String(err), where: 'recompute worker' } };
    }
  },
};

exposeApi(api);
