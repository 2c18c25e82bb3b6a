/// <reference lib="webworker" />
/** Recomputes a model's metrics off the main thread (a 40,000-row bootstrap takes seconds). */
import { boundedModelMetrics } from '../../pipeline/overrides-recompute';
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
};

exposeApi(api);
