/** The page's side of the dataset worker, started on the first file read or hub load. */
import * as Comlink from 'comlink';
import type { DatasetWorkerApi } from './dataset-api';
import { connectApi } from './worker-connection';

const worker = connectApi<DatasetWorkerApi>(() => new Worker(new URL('./dataset.worker.ts', import.meta.url), { type: 'module', name: 'semece-dataset' }), { name: 'dataset' }).api;

/** The worker's API as the page calls it: callbacks proxied, a file's bytes moved rather than copied. */
export const datasetClient: DatasetWorkerApi = {
  loadHub: (request, onProgress) => worker.loadHub(request, onProgress ? Comlink.proxy(onProgress) : undefined),
  remapHub: (mapping) => worker.remapHub(mapping),
  readFile: (bytes, name, options) => worker.readFile(Comlink.transfer(bytes, [bytes.buffer]), name, options),
  remapFile: (mapping) => worker.remapFile(mapping),
};
