/**
 * What the page asks of the dataset worker, so that no dataset is decoded or parsed on the main
 * thread (a 50 MB file took seconds there): a file's bytes read (decoded by their BOM, parsed,
 * previewed, mapped), a hub dataset loaded (listed, fetched or read from IndexedDB, parsed), and
 * either read again with another column mapping without decoding or parsing anything twice.
 * The API is plain functions over a cache, so Node tests run it without a worker.
 */
import { datasetFromTable, decodeDatasetBytes, parseTable, previewTable, type ColumnMapping, type DatasetPreview, type ReadDataset, type Table } from '../formats/datasets';
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

export interface FileReadResult {
  preview: DatasetPreview;
  /** The questions, or why the table gave none (the preview still shows, for a mapping). */
  read: Result<ReadDataset>;
  /** The decoded text, when it is at most `keepTextUpTo` characters (the page keeps it across reloads). */
  text?: string;
}

export interface DatasetWorkerApi {
  loadHub(request: HubLoadRequest, onProgress?: (p: HubProgress) => void): Promise<Result<HubLoadResult>>;
  /** The last loaded table with another mapping. */
  remapHub(mapping: ColumnMapping): Promise<Result<ReadDataset>>;
  /** A dataset file's bytes: refused over the size limit, decoded, parsed; its layout recognised unless `mapping` is given. */
  readFile(bytes: Uint8Array, name: string, options?: { mapping?: ColumnMapping; keepTextUpTo?: number }): Promise<Result<FileReadResult>>;
  /** The last read file with another mapping. */
  remapFile(mapping: ColumnMapping): Promise<Result<ReadDataset>>;
}

export function datasetWorkerApi(cache: () => Promise<HubFileCache>): DatasetWorkerApi {
  let last: HubTable | undefined;
  let lastFile: { table: Table; name: string } | undefined;
  return {
    async readFile(bytes, name, options = {}) {
      const text = decodeDatasetBytes(bytes, name);
      if (!text.ok) return text;
      const table = parseTable(text.value, name);
      if (!table.ok) return table;
      lastFile = { table: table.value, name };
      const keep = options.keepTextUpTo !== undefined && text.value.length <= options.keepTextUpTo;
      return { ok: true, value: { preview: previewTable(table.value), read: datasetFromTable(table.value, name, options.mapping), ...(keep ? { text: text.value } : {}) } };
    },
    async remapFile(mapping) {
      if (!lastFile) return { ok: false, error: { kind: 'dataset', message: 'Choose the dataset file first.', where: 'dataset file' } };
      return datasetFromTable(lastFile.table, lastFile.name, mapping);
    },
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
