/// <reference lib="webworker" />
/**
 * Recomputes a model's metrics, and compares the signals (and gives each ECE its interval) of a
 * report saved before they were stored, off the main thread (a 40,000-row bootstrap takes seconds).
 */
import { boundedModelMetrics } from '../../pipeline/overrides-recompute';
import { compareDocumentColumns } from '../../pipeline/signal-comparison';
import { eceInferenceOfRows } from '../../pipeline/ece-inference-metrics';
import { sliceReport } from '../../pipeline/slices';
import { exposeApi } from '../../workers/worker-connection';
import { unpackRows } from './recompute-rows';
import type { RecomputeWorkerApi } from './recompute-client';
import { errorText } from '../error-text';

const api: RecomputeWorkerApi = {
  recompute({ rows, excluded, signals, options }) {
    try {
      return { ok: true, value: boundedModelMetrics(unpackRows(rows), { excluded, signals }, options) };
    } catch (err) {
      return { ok: false, error: { kind: 'override', message: errorText(err), where: 'recompute worker' } };
    }
  },
  compare({ columns, correct, options }) {
    try {
      return { ok: true, value: compareDocumentColumns(columns, correct, options) };
    } catch (err) {
      return { ok: false, error: { kind: 'compare', message: errorText(err), where: 'recompute worker' } };
    }
  },
  infer({ rows, signals, settings }) {
    try {
      return { ok: true, value: eceInferenceOfRows(unpackRows(rows), signals, settings) };
    } catch (err) {
      return { ok: false, error: { kind: 'infer', message: errorText(err), where: 'recompute worker' } };
    }
  },
  slices({ questions, column, signals, options }) {
    try {
      return { ok: true, value: sliceReport(questions, column, signals, options) };
    } catch (err) {
      return { ok: false, error: { kind: 'slices', message: errorText(err), where: 'recompute worker' } };
    }
  },
};

exposeApi(api);
