/// <reference lib="webworker" />
/**
 * The recompute worker: a model's metrics after a grade override, and the comparison, the ECE
 * intervals and the slices of a report saved before they were stored, off the main thread
 * (recompute-api.ts).
 */
import { recomputeApi } from './recompute-api';
import { exposeApi } from './worker-connection';

exposeApi(recomputeApi);
