/** The page's side of the dataset worker, started on the first hub load. */
import * as Comlink from 'comlink';
import type { HubProgress } from '../hub/hub-files';
import type { HubDatasetApi, HubLoadRequest } from './hub-dataset-api';
import { connectApi } from './worker-connection';

const worker = connectApi<HubDatasetApi>(() => new Worker(new URL('./dataset.worker.ts', import.meta.url), { type: 'module', name: 'semece-dataset' }), { name: 'dataset' }).api;

export const datasetClient = {
  loadHub: (request: HubLoadRequest, onProgress?: (p: HubProgress) => void) => worker.loadHub(request, onProgress ? Comlink.proxy(onProgress) : undefined),
  remapHub: (mapping: Parameters<HubDatasetApi["remapHub"]>[0]) => worker.remapHub(mapping),
};
