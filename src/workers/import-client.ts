/**
 * The page's handle on the import worker, started on the first link or file opened. The rows
 * come ahead of the document in parts (import-rows.ts) and are put back here. Where no worker can
 * start (storage or script policies that forbid workers), the same functions run on the main
 * thread from then on, loaded only then, so the page still opens the report.
 */
import * as Comlink from 'comlink';
import type { ReportDocument } from '../model/report';
import type { Result } from '../model/rows';
import type { SharedReport } from '../share/codec';
import type { OnImportProgress } from '../formats/import-progress';
import type { ImportWorkerApi } from './import-api';
import { rowCollector } from './import-rows';
import { connectApi, WORKER_UNAVAILABLE } from './worker-connection';
import type { ModelReport } from '../model/report';
import type { ReportAgreement } from '../pipeline/report-agreement';
import { packReportClusterings } from '../pipeline/report-clusterings';
import type { CompareOptions, LabelledReport } from './compare-api';
import type { ReportComparison } from '../pipeline/report-comparison';
import type { Leaderboard } from '../pipeline/leaderboard';
import type { SignalName } from '../model/signals';
import type { SharedCompare } from '../share/compare-link';

const connection = connectApi<ImportWorkerApi>(() => new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module', name: 'semece-import' }), { name: 'import' });
let mainThreadOnly = false;

const proxied = (f?: OnImportProgress) => (f ? Comlink.proxy(f) : undefined);

const unavailable = (err: unknown) => (err as { kind?: string } | null)?.kind === WORKER_UNAVAILABLE;

async function call<T>(inWorker: () => Promise<T>, onMainThread: (api: ImportWorkerApi) => Promise<T>): Promise<T> {
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
    call<Result<SharedReport>>(
      async () => {
        const rows = rowCollector();
        const result = await connection.api.openSharedLink(payload, proxied(onProgress), Comlink.proxy(rows.onRows));
        return result.ok ? { ok: true, value: { ...result.value, report: rows.restore(result.value.report) } } : result;
      },
      (api) => api.openSharedLink(payload, onProgress),
    ),
  openReportFile: (file: File, onProgress?: OnImportProgress): Promise<Result<ReportDocument>> =>
    call<Result<ReportDocument>>(
      async () => {
        const rows = rowCollector();
        const result = await connection.api.openReportFile(file, proxied(onProgress), Comlink.proxy(rows.onRows));
        return result.ok ? { ok: true, value: rows.restore(result.value) } : result;
      },
      (api) => api.openReportFile(file, onProgress),
    ),
  /** The agreement of `model`'s clustering with a clustered file, computed in the worker. */
  compareClusterings: (model: Pick<ModelReport, 'questions' | 'excludedQuestions'>, file: File): Promise<Result<ReportAgreement>> => {
    const own = packReportClusterings(model);
    const excluded = model.excludedQuestions.map(({ id, reason }) => ({ id, reason }));
    return call<Result<ReportAgreement>>(
      () => connection.api.compareClusterings(own, excluded, file),
      (api) => api.compareClusterings(own, excluded, file),
    );
  },
  /** Every pair of the reports' models compared (paired bootstrap, Holm), in the worker. */
  compareDocuments: (reports: LabelledReport[], options?: CompareOptions): Promise<Result<ReportComparison>> =>
    call<Result<ReportComparison>>(() => connection.api.compareDocuments(reports, options), async (api) => api.compareDocuments(reports, options)),
  /** The reports' models ranked by one signal's ECE, in the worker. */
  leaderboardOf: (reports: LabelledReport[], signal: SignalName, options?: CompareOptions): Promise<Result<Leaderboard>> =>
    call<Result<Leaderboard>>(() => connection.api.leaderboardOf(reports, signal, options), async (api) => api.leaderboardOf(reports, signal, options)),
  /** A shared comparison's or leaderboard's link, inflated and checked in the worker. */
  openCompareLink: (payload: string): Promise<Result<SharedCompare>> =>
    call<Result<SharedCompare>>(() => connection.api.openCompareLink(payload), async (api) => api.openCompareLink(payload)),
};
