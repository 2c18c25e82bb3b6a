/**
 * The page's handle on the import worker, started on the first link or file opened. Where no
 * worker can start (storage or script policies that forbid workers), the same functions run on
 * the main thread from then on, loaded only then, so the page still opens the report.
 */
import * as Comlink from 'comlink';
import type { ReportDocument } from '../model/report';
import type { Result } from '../model/rows';
import type { SharedReport } from '../share/codec';
import type { OnImportProgress } from '../formats/import-progress';
import type { ImportWorkerApi } from './import-api';
import { connectApi, WORKER_UNAVAILABLE } from './worker-connection';

const connection = connectApi<ImportWorkerApi>(() => new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module', name: 'semece-import' }), { name: 'import' });
let mainThreadOnly = false;

const proxied = (f?: OnImportProgress) => (f ? Comlink.proxy(f) : undefined);

const unavailable = (err: unknown) => (err as { kind?: string } | null)?.kind === WORKER_UNAVAILABLE;

async function call<T>(inWorker: () => Promise<T>, onMainThread: (api: ImportWorkerApi) => T | Promise<T>): Promise<T> {
  if (!mainThreadOnly) {
    try {
      return await inWorker();
    } catch (err) {
      if (!unavailable(err)) throw err;
      mainThreadOnly = true;
    }
  }
  return onMainThread((await import('./import-api')).importApi);
}

export const importClient = {
  openSharedLink: (payload: string, onProgress?: OnImportProgress): Promise<Result<SharedReport>> =>
    call<Result<SharedReport>>(() => connection.api.openSharedLink(payload, proxied(onProgress)), (api) => api.openSharedLink(payload, onProgress)),
  openReportFile: (file: File, onProgress?: OnImportProgress): Promise<Result<ReportDocument>> =>
    call<Result<ReportDocument>>(() => connection.api.openReportFile(file, proxied(onProgress)), (api) => api.openReportFile(file, onProgress)),
};
