/** What the wizard draft's tests share: session storage over a Map, and a dataset API run in-process. */
import { datasetWorkerApi } from '../../../../src/workers/dataset-api';
import { NO_HUB_CACHE } from '../../../../src/model/hub-file-cache';

/** A Storage over a Map, as session storage is. */
export function memoryStorage(): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}

/** Each draft with its own dataset API, run in-process (the page runs it in the dataset worker). */
export const noHub = () => {
  const api = datasetWorkerApi(async () => NO_HUB_CACHE);
  return async () => api;
};
