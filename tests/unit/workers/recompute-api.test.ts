/**
 * What the recompute worker serves (workers/recompute-api.ts), called as the page calls it: over
 * a MessageChannel with the packed rows' buffers transferred. Each answer is the pipeline
 * function's on the document's own rows; a failure comes back as a value in the one error shape
 * (model/app-error.ts: kind, message, where, name), which the client words for the page.
 */
import { afterEach, expect, test } from 'vitest';
import * as Comlink from 'comlink';
import { recomputeApi, type RecomputeWorkerApi } from '../../../src/workers/recompute-api';
import { packComparison, packRows, transferables } from '../../../src/workers/recompute-rows';
import { recomputeFailure } from '../../../src/workers/recompute-client';
import { connectApi, exposeApi } from '../../../src/workers/worker-connection';
import { boundedModelMetrics } from '../../../src/pipeline/overrides-recompute';
import { compareReportSignals } from '../../../src/pipeline/signal-comparison';
import { eceInferenceOfRows } from '../../../src/pipeline/ece-inference-metrics';
import { sliceReport } from '../../../src/pipeline/slices';
import type { SignalName } from '../../../src/model/report';
import { sampleReport } from '../share/report-fixture';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

/** The worker's API served over a MessageChannel, as recompute.worker.ts serves it. */
function served() {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  exposeApi(recomputeApi, port1);
  return connectApi<RecomputeWorkerApi>(() => port2, { name: 'recompute' }).api;
}

const model = sampleReport({ questions: 90, samples: false }).models[0];
// The fixture's rows carry a stated probability besides the paper's three: it travels packed too.
const signals: SignalName[] = ['sem1', 'sem2', 'verbalized', 'stated'];

test('recompute answers boundedModelMetrics of the rows it was sent packed', async () => {
  const rows = packRows(model.questions, signals);
  const options = { bins: 10, B: 50, bootstrapSeed: 3 };
  const reply = await served().recompute(Comlink.transfer({ rows, excluded: 2, signals, options }, transferables(rows)));
  expect(reply).toEqual({ ok: true, value: boundedModelMetrics(model.questions, { excluded: 2, signals }, options) });
});

test('compare, infer and slices answer what the pipeline computes', async () => {
  const api = served();
  const { columns, correct } = packComparison(model.questions);
  const options = { B: 50, seed: 7, bins: 10 };
  expect(await api.compare({ columns, correct, options })).toEqual({ ok: true, value: compareReportSignals(model, options) });

  const settings = { bins: 10, seed: 5 };
  const rows = packRows(model.questions, signals);
  expect(await api.infer({ rows, signals, settings })).toEqual({ ok: true, value: eceInferenceOfRows(model.questions, signals, settings) });

  const questions = model.questions.map((q, i) => ({ ...q, fields: { topic: i % 3 ? 'odd' : 'third' } }));
  const request = { questions, column: 'topic', signals, options: { bins: 10, seed: 1 } };
  expect(await api.slices(request)).toEqual({ ok: true, value: sliceReport(questions, 'topic', signals, request.options) });
});

test('a refusal comes back as a value in the one error shape, named for what failed and where', async () => {
  const rows = packRows(model.questions, signals);
  const reply = await served().recompute({ rows, excluded: 0, signals, options: { B: 1e9 } });
  expect(reply.ok).toBe(false);
  if (reply.ok) return;
  expect(reply.error).toMatchObject({ kind: 'override', where: 'recompute worker', name: 'RecomputeTooLargeError' });
  expect(reply.error.message).toMatch(/too large/);
  // The client's wording: what could not be done, then the worker's words; kind and place kept.
  const worded = recomputeFailure('override', 'The metrics could not be recomputed', reply.error);
  expect(worded).toEqual({ ok: false, error: { ...reply.error, message: `The metrics could not be recomputed: ${reply.error.message}` } });

  const unknown = await served().slices({ questions: model.questions, column: 'nobody-has-this', signals, options: { bins: 10, seed: 1 } });
  expect(unknown).toMatchObject({ ok: false, error: { kind: 'slices', where: 'recompute worker' } });
});
