/**
 * A hub dataset as questions: its files listed and fetched (hub-files.ts), each parsed as the
 * file readers parse a local file (Parquet shards with hyparquet, CSV/JSON/JSONL as any file),
 * the shards joined into one table, and the table mapped to questions with a catalogue entry's
 * mapping, the user's, or the recognised layout. A file is cached only once it parsed, so a
 * truncated download is fetched again next time rather than kept.
 */
import { datasetFromTable, parseTable, previewTable, type ColumnMapping, type DatasetPreview, type ReadDataset, type Table } from '../formats/datasets';
import { parquetTable } from '../formats/datasets/parquet';
import type { Result } from '../model/rows';
import { hubSourceName, type HubSource } from './catalogue';
import { downloadHubFiles, keep, listHubFiles, type HubOptions } from './hub-files';

export interface HubTable {
  table: Table;
  /** The dataset's name ("SimpleQA" from basicv8vc/SimpleQA) and the source as runs record it. */
  name: string;
  source: string;
  files: { path: string; size: number; fromCache: boolean }[];
}

/** Lists, fetches (or reads from the cache) and parses every file of a source into one table. */
export async function loadHubTable(source: HubSource, options: HubOptions): Promise<Result<HubTable>> {
  const listed = await listHubFiles(source, options);
  if (!listed.ok) return listed;
  const downloaded = await downloadHubFiles(source.repo, listed.value, options);
  if (!downloaded.ok) return downloaded;
  const rows: Table['rows'] = [];
  let format: Table['format'] = 'parquet';
  let columns: string[] = [];
  const total = downloaded.value.reduce((s, f) => s + f.bytes.length, 0);
  let read = 0;
  for (const f of downloaded.value) {
    options.onProgress?.({ phase: 'reading', file: f.path, loaded: read, total, cached: 0 });
    const parsed = f.path.toLowerCase().endsWith('.parquet') ? await parquetTable(f.bytes, f.path, rows.length) : parseTable(f.bytes, f.path);
    if (!parsed.ok) return parsed;
    format = parsed.value.format;
    if (columns.length === 0) columns = parsed.value.columns;
    for (const r of parsed.value.rows) rows.push(r);
    read += f.bytes.length;
    await keep(f.url, f, options.cache);
  }
  options.onProgress?.({ phase: 'reading', loaded: total, total, cached: 0 });
  return {
    ok: true,
    value: {
      table: { format, columns, rows },
      name: source.repo.split('/')[1],
      source: hubSourceName(source),
      files: downloaded.value.map((f) => ({ path: f.path, size: f.bytes.length, fromCache: f.fromCache })),
    },
  };
}

/** The questions of a loaded hub table, named for the hub source. */
export function hubQuestions(loaded: HubTable, mapping?: ColumnMapping): Result<ReadDataset> {
  const read = datasetFromTable(loaded.table, loaded.source, mapping);
  if (!read.ok) return read;
  return { ok: true, value: { ...read.value, dataset: { ...read.value.dataset, name: loaded.name, source: loaded.source } } };
}

export function hubPreview(loaded: HubTable, limit = 5): DatasetPreview {
  return previewTable(loaded.table, limit);
}

