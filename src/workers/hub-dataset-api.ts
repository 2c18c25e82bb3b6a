/**
 * What the page asks of the dataset worker: a hub dataset loaded (listed, fetched or read from
 * IndexedDB, parsed) off the main thread, then mapped to questions, again with another column
 * mapping without fetching or parsing anything twice. The API is plain functions over a cache so
 * Node tests run it without a worker.
 */
import type { ColumnMapping, DatasetPreview, ReadDataset } from '../formats/datasets';
import type { HubSource } from '../hub/catalogue';
import { hubPreview, hubQuestions, loadHubTable, type HubTable } from '../hub/hub-dataset';
import type { HubProgress } from '../hub/hub-files';
import type { HubFileCache } from '../model/hub-file-cache';
import type { Result } from '../model/rows';

export interface HubLoadRequest {
  source: HubSource;
  hubUrl?: string;
  /** Sent only to the hub, for gated datasets; never stored by this worker. */
  token?: string;
  /** A catalogue entry's mapping or the user's; else the recognised layout. */
  mapping?: ColumnMapping;
}

export interface HubLoadResult {
  preview: DatasetPreview;
  /** The questions, or why the table gave none (the preview still shows, for a mapping). */
  read: Result<ReadDataset>;
  files: HubTable['files'];
  source: string;
}

export interface HubDatasetApi {
  loadHub(request: HubLoadRequest, onProgress?: (p: HubProgress) => void): Promise<Result<HubLoadResult>>;
  /** The last loaded table with another mapping. */
  remapHub(mapping: ColumnMapping): Promise<Result<ReadDataset>>;
}

export function hubDatasetApi(cache: () => Promise<HubFileCache>): HubDatasetApi {
  let last: HubTable | undefined;
  return {
    async loadHub(request, onProgress) {
      const loaded = await loadHubTable(request.source, { hubUrl: request.hubUrl, token: request.token, cache: await cache(), onProgress });
      if (!loaded.ok) return loaded;
      last = loaded.value;
      return { ok: true, value: { preview: hubPreview(last), read: hubQuestions(last, request.mapping), files: last.files, source: last.source } };
    },
    async remapHub(mapping) {
      if (!last) return { ok: false, error: { kind: 'dataset', message: 'Load the hub dataset first.', where: 'hub dataset' } };
      return hubQuestions(last, mapping);
    },
  };
}
