/** The page's handle on the batch worker, started on first use (pages that never batch never load it). */
import * as Comlink from 'comlink';
import type { RunSpec } from '../model/run-spec.ts';
import type { BatchProgress, BatchWorkerApi } from './batch.worker.ts';
import { connectApi } from './worker-connection.ts';

const worker = connectApi<BatchWorkerApi>(() => new Worker(new URL('./batch.worker.ts', import.meta.url), { type: 'module', name: 'semece-batch' }), { name: 'batch' }).api;

const proxied = (f?: (p: BatchProgress) => void) => (f ? Comlink.proxy(f) : undefined);

export const batchClient = {
  requestFiles: (spec: RunSpec, modelIndex: number) => worker.requestFiles(spec, modelIndex),
  readResults: (spec: RunSpec, modelIndex: number, files: File[], onProgress?: (p: BatchProgress) => void) => worker.readResults(spec, modelIndex, files, proxied(onProgress)),
  submit: (spec: RunSpec, modelIndex: number, apiKey: string | undefined, retryInteractively: boolean, onProgress?: (p: BatchProgress) => void) =>
    worker.submit(spec, modelIndex, apiKey, retryInteractively, proxied(onProgress)),
  judgeRequestFiles: (spec: RunSpec) => worker.judgeRequestFiles(spec),
  readJudgeResults: (spec: RunSpec, files: File[]) => worker.readJudgeResults(spec, files),
  submitJudge: (spec: RunSpec, apiKey: string | undefined, onProgress?: (p: BatchProgress) => void) => worker.submitJudge(spec, apiKey, proxied(onProgress)),
};
