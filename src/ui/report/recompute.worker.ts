/// <reference lib="webworker" />
/** Recomputes a model's metrics off the main thread (a 40,000-row bootstrap takes seconds). */
import { modelMetrics } from '../../pipeline/score';
import { unpackRows } from './recompute-rows';
import type { RecomputeRequest, RecomputeReply } from './recompute-client';

self.onmessage = (event: MessageEvent<RecomputeRequest>) => {
  const { id, rows, excluded, signals, options } = event.data;
  let reply: RecomputeReply;
  try {
    reply = { id, ok: true, metrics: modelMetrics(unpackRows(rows), { excluded, signals }, options) };
  } catch (err) {
    reply = { id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(reply);
};
