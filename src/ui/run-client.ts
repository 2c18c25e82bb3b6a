/**
 * The page's handle on the run worker: created once, on first use, so pages that never start a
 * run never load it. Progress listeners are wrapped in Comlink.proxy here so callers pass plain
 * functions.
 */
import * as Comlink from 'comlink';
import type { ModelSpec, RunKeys, RunSpec } from '../model/run-spec';
import type { PriceTable } from '../model/cost';
import type { ProgressListener, RunWorkerApi } from '../workers/protocol';
import { registerErrorTransfer } from '../workers/transfer';

let remote: Comlink.Remote<RunWorkerApi> | undefined;

function worker(): Comlink.Remote<RunWorkerApi> {
  if (!remote) {
    registerErrorTransfer();
    const w = new Worker(new URL('../workers/run.worker.ts', import.meta.url), { type: 'module', name: 'semece-run' });
    remote = Comlink.wrap<RunWorkerApi>(w);
    void remote.setAppBase(document.baseURI);
    flushWhenLeaving(remote);
  }
  return remote;
}

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
  start: (spec: RunSpec, keys: RunKeys, onProgress?: ProgressListener) => worker().start(spec, keys, proxied(onProgress)),
  resume: (runId: string, keys: RunKeys, onProgress?: ProgressListener) => worker().resume(runId, keys, proxied(onProgress)),
  watch: (runId: string, onProgress: ProgressListener) => worker().watch(runId, Comlink.proxy(onProgress)),
  pause: (runId: string) => worker().pause(runId),
  cancel: (runId: string) => worker().cancel(runId),
  status: (runId: string) => worker().status(runId),
  listRuns: () => worker().listRuns(),
  deleteRun: (runId: string) => worker().deleteRun(runId),
  testConnection: (model: ModelSpec, apiKey: string | undefined) => worker().testConnection(model, apiKey),
  setPrices: (prices: PriceTable) => worker().setPrices(prices),
};
