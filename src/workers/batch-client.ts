/** The page's handle on the batch worker, started on first use (pages that never batch never load it). */
import * as Comlink from 'comlink';
import type { BatchProgress, BatchSubmitOptions, BatchWorkerApi } from './batch-api.ts';
import { connectApi } from './worker-connection.ts';

const worker = connectApi<BatchWorkerApi>(() => new Worker(new URL('./batch.worker.ts', import.meta.url), { type: 'module', name: 'semece-batch' }), { name: 'batch' }).api;

const proxied = (f?: (p: BatchProgress) => void) => (f ? Comlink.proxy(f) : undefined);

export const batchClient = {
  requestFiles: (runId: string, modelIndex: number) => worker.requestFiles(runId, modelIndex),
  readResults: (runId: string, modelIndex: number, files: File[], onProgress?: (p: BatchProgress) => void) => worker.readResults(runId, modelIndex, files, proxied(onProgress)),
  submit: (runId: string, modelIndex: number, options: BatchSubmitOptions, onProgress?: (p: BatchProgress) => void) => worker.submit(runId, modelIndex, options, proxied(onProgress)),
  judgeRequestFiles: (runId: string) => worker.judgeRequestFiles(runId),
  readJudgeResults: (runId: string, files: File[]) => worker.readJudgeResults(runId, files),
  submitJudge: (runId: string, apiKey: string | undefined, onProgress?: (p: BatchProgress) => void) => worker.submitJudge(runId, apiKey, proxied(onProgress)),
  pendingBatches: (runId: string) => worker.pendingBatches(runId),
  resume: (runId: string, apiKeys: Partial<Record<string, string>>, onProgress?: (p: BatchProgress) => void) => worker.resume(runId, apiKeys, proxied(onProgress)),
  forget: (runId: string, batchId: string) => worker.forget(runId, batchId),
  stopWaiting: () => worker.stopWaiting(),
};
