/**
 * A hub dataset as questions: its files listed and fetched (hub-files.ts), each parsed as the
 * file readers parse a local file (Parquet shards with hyparquet, CSV/JSON/JSONL as any file),
 * the shards joined into one table, and the table mapped to questions with a catalogue entry's
 * mapping, the user's, or the recognised layout. A file is cached only once it parsed, so a
 * truncated download is fetched again next time rather than kept.
 */
import { datasetFromTable, parseTable, previewTable, type ColumnMapping, type DatasetPreview, type Layout, type ReadDataset, type Table } from '../formats/datasets';
import { detectLayout } from '../formats/datasets/layouts';
import { parquetTable } from '../formats/datasets/parquet';
import type { Result } from '../model/rows';
import { hubSourceName, keptSliceColumns, type HubSource } from './catalogue';
import { downloadHubFiles, keep, listHubFiles, type DownloadedFile, type HubOptions } from './hub-files';

export interface HubTable {
  table: Table;
  /** The dataset's name ("SimpleQA" from basicv8vc/SimpleQA) and the source as runs record it. */
  name: string;
  source: string;
  files: { path: string; size: number; fromCache: boolean }[];
  /** The layout recognised in the first rows, when only its columns were read (`onlyMapped: 'layout'`). */
  detected?: { layout: Layout; mapping: ColumnMapping };
}

export interface HubReadOptions {
  /**
   * Decode only the Parquet columns this mapping reads, or ('layout') those of the layout
   * recognised in the first 50 rows; every column when absent (the app's panel previews every
   * column and may be remapped to any).
   */
  onlyMapped?: ColumnMapping | 'layout';
}

/** The top-level columns a mapping reads ("answer" for "answer.value"; a flattened name as it is). */
export function mappedColumns(mapping: ColumnMapping): string[] {
  const paths = Object.entries(mapping).filter(([, role]) => role !== 'ignore').map(([path]) => path);
  return [...new Set(paths.flatMap((path) => [path, path.split('.')[0]]))];
}

/** The layout of the first rows of the first Parquet file (bounded like a full read), if one is recognised. */
async function layoutOfFirstRows(files: DownloadedFile[]): Promise<Result<{ layout: Layout; mapping: ColumnMapping } | undefined>> {
  const first = files.find((f) => f.path.toLowerCase().endsWith('.parquet'));
  if (!first) return { ok: true, value: undefined };
  const look = await parquetTable(first.bytes, first.path, 0, { rowEnd: 50 });
  if (!look.ok) return look;
  return { ok: true, value: detectLayout(look.value) };
}

/** Lists, fetches (or reads from the cache) and parses every file of a source into one table. */
export async function loadHubTable(source: HubSource, options: HubOptions, reading: HubReadOptions = {}): Promise<Result<HubTable>> {
  const listed = await listHubFiles(source, options);
  if (!listed.ok) return listed;
  const downloaded = await downloadHubFiles(source.repo, listed.value, options);
  if (!downloaded.ok) return downloaded;
  let detected: HubTable['detected'];
  let columns: string[] | undefined;
  if (reading.onlyMapped === 'layout') {
    const look = await layoutOfFirstRows(downloaded.value);
    if (!look.ok) return look;
    detected = look.value;
    columns = detected && mappedColumns(detected.mapping);
  } else if (reading.onlyMapped) columns = mappedColumns(reading.onlyMapped);
  const rows: Table['rows'] = [];
  let format: Table['format'] = 'parquet';
  let tableColumns: string[] = [];
  const total = downloaded.value.reduce((s, f) => s + f.bytes.length, 0);
  let read = 0;
  for (const f of downloaded.value) {
    options.onProgress?.({ phase: 'reading', item: f.path, done: read, total, unit: 'bytes', cached: 0 });
    const parsed = f.path.toLowerCase().endsWith('.parquet') ? await parquetTable(f.bytes, f.path, rows.length, { columns }) : parseTable(f.bytes, f.path);
    if (!parsed.ok) return parsed;
    format = parsed.value.format;
    if (tableColumns.length === 0) tableColumns = parsed.value.columns;
    for (const r of parsed.value.rows) rows.push(r);
    read += f.bytes.length;
    await keep(f.url, f, options.cache);
  }
  options.onProgress?.({ phase: 'reading', done: total, total, unit: 'bytes', cached: 0 });
  return {
    ok: true,
    value: {
      table: { format, columns: tableColumns, rows },
      name: source.repo.split('/')[1],
      source: hubSourceName(source),
      files: downloaded.value.map((f) => ({ path: f.path, size: f.bytes.length, fromCache: f.fromCache })),
      ...(detected ? { detected } : {}),
    },
  };
}

/**
 * The questions of a loaded hub table, named for the hub source. Without a mapping, the layout
 * recognised before some columns were left unread applies (recognising it again on fewer
 * columns could find another).
 */
export function hubQuestions(loaded: HubTable, mapping?: ColumnMapping): Result<ReadDataset> {
  const read = datasetFromTable(loaded.table, loaded.source, mapping ?? loaded.detected?.mapping, keptSliceColumns(loaded.source));
  if (!read.ok) return read;
  const layout = !mapping && loaded.detected ? loaded.detected.layout : read.value.layout;
  return { ok: true, value: { ...read.value, layout, dataset: { ...read.value.dataset, name: loaded.name, source: loaded.source } } };
}

export function hubPreview(loaded: HubTable, limit = 5): DatasetPreview {
  return previewTable(loaded.table, limit);
}

