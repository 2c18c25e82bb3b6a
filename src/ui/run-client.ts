/**
 * The page's handle on the run worker, which runs runs and owns this device's storage (saved
 * reports, remembered keys, prices): started on first use, so pages that never need it never load
 * it. Progress listeners are wrapped in Comlink.proxy here so callers pass plain functions.
 */
import * as Comlink from 'comlink';
import type { ModelSpec, RunKeys, RunSpec } from '../model/run-spec';
import type { PriceTable } from '../model/cost';
import type { ReportDocument } from '../model/report';
import type { AuditRecord } from '../model/audit-repository';
import type { GradeOverride, ProgressListener, RunWorkerApi, StorageApi } from '../workers/protocol';
import { connectApi } from '../workers/worker-connection';
import { packRunSpec } from '../workers/run-spec-transfer';

const connection = connectApi<RunWorkerApi>(() => new Worker(new URL('../workers/run.worker.ts', import.meta.url), { type: 'module', name: 'semece-run' }), {
  name: 'run',
  onStart(worker) {
    void worker.setAppBase(document.baseURI);
    flushWhenLeaving(worker);
  },
});
const worker = connection.api;

/**
 * Best effort: when the tab is hidden or unloaded, the worker commits what it has batched at
 * once instead of after its short delay (a closing tab may still end the worker first).
 */
function flushWhenLeaving(worker: Comlink.Remote<RunWorkerApi>) {
  const flush = () => void worker.flushWrites().catch(() => undefined);
  addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
}

const proxied = (listener?: ProgressListener) => (listener ? Comlink.proxy(listener) : undefined);

export const runClient = {
  // Packed (run-spec-transfer.ts): a structured clone of a large dataset would hold the page's thread for one long task.
  start: async (spec: RunSpec, keys: RunKeys, onProgress?: ProgressListener) => worker.start(await packRunSpec(spec), keys, proxied(onProgress)),
  resume: (runId: string, keys: RunKeys, onProgress?: ProgressListener) => worker.resume(runId, keys, proxied(onProgress)),
  scorePartial: (runId: string, keys: RunKeys, onProgress?: ProgressListener) => worker.scorePartial(runId, keys, proxied(onProgress)),
  watch: (runId: string, onProgress: ProgressListener) => worker.watch(runId, Comlink.proxy(onProgress)),
  pause: (runId: string) => worker.pause(runId),
  cancel: (runId: string) => worker.cancel(runId),
  status: (runId: string) => worker.status(runId),
  listRuns: () => worker.listRuns(),
  deleteRun: (runId: string) => worker.deleteRun(runId),
  testConnection: (model: ModelSpec, apiKey: string | undefined) => worker.testConnection(model, apiKey),
  setPrices: (prices: PriceTable) => worker.setPrices(prices),
};

/** This device's storage, through the run worker (the page never opens IndexedDB itself). */
export const storageClient: StorageApi = {
  getReport: (id: string) => worker.getReport(id),
  saveReport: (id: string, document: ReportDocument) => worker.saveReport(id, document),
  listSavedReports: () => worker.listSavedReports(),
  deleteReport: (id: string) => worker.deleteReport(id),
  saveGradeOverride: (override: GradeOverride, document: ReportDocument) => worker.saveGradeOverride(override, document),
  questionSamples: (reportId: string, model: string, questionId: string) => worker.questionSamples(reportId, model, questionId),
  verifyFromCache: (reportId: string) => worker.verifyFromCache(reportId),
  getAudit: (reportId: string) => worker.getAudit(reportId),
  saveAudit: (record: AuditRecord) => worker.saveAudit(record),
  deleteAudit: (reportId: string) => worker.deleteAudit(reportId),
  rememberedKeys: () => worker.rememberedKeys(),
  rememberKey: (keyId: string, key: string) => worker.rememberKey(keyId, key),
  forgetKey: (keyId: string) => worker.forgetKey(keyId),
  getPrices: () => worker.getPrices(),
  getModelHub: () => worker.getModelHub(),
  setModelHub: (hub: string | undefined) => worker.setModelHub(hub),
  storageUsed: () => worker.storageUsed(),
};
