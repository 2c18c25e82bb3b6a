/**
 * A hub dataset as questions: its files listed and fetched (hub-files.ts), each parsed as the
 * file readers parse a local file (Parquet shards with hyparquet, CSV/JSON/JSONL as any file),
 * the shards joined into one table, and the table mapped to questions with a catalogue entry's
 * mapping, the user's, or the recognised layout. A file is cached only once it parsed, so a
 * truncated download is fetched again next time rather than kept.
 */
import { datasetFromTable, parseTable, previewTable, roleColumns, type ColumnMapping, type DatasetPreview, type Layout, type ReadDataset, type Table } from '../formats/datasets';
import { detectLayout } from '../formats/datasets/layouts';
import { parquetTable } from '../formats/datasets/parquet';
import { drawSubset, type SubsetChoice } from '../formats/datasets/subset';
import { drawParquetQuestions } from './hub-draw';
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

/** Lists and fetches (or reads from the cache) every file of a source. */
async function fetchHubFiles(source: HubSource, options: HubOptions): Promise<Result<DownloadedFile[]>> {
  const listed = await listHubFiles(source, options);
  if (!listed.ok) return listed;
  return downloadHubFiles(source.repo, listed.value, options);
}

/** Lists, fetches (or reads from the cache) and parses every file of a source into one table. */
export async function loadHubTable(source: HubSource, options: HubOptions, reading: HubReadOptions = {}): Promise<Result<HubTable>> {
  const downloaded = await fetchHubFiles(source, options);
  if (!downloaded.ok) return downloaded;
  return readHubFiles(source, downloaded, options, reading);
}

/** Parses fetched files into one table (see loadHubTable); a file is cached once it parsed. */
async function readHubFiles(source: HubSource, downloaded: { value: DownloadedFile[] }, options: HubOptions, reading: HubReadOptions): Promise<Result<HubTable>> {
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

export interface HubDrawOptions {
  /** A catalogue entry's mapping; else the layout recognised in the first rows. */
  mapping?: ColumnMapping;
  /** `--limit`/`--seed`: read only the row groups this draw needs (hub-draw.ts); every row when absent. */
  draw?: SubsetChoice;
  /** Each Parquet column chunk decoded for the draw's questions or strata: file, row group, column. */
  onDecoded?: (file: string, group: number, column: string) => void;
}

/**
 * A source's questions for `semece sample`, drawn when `draw` is given: from the row groups the
 * draw needs when the split is Parquet (hub-draw.ts), else from every row, as drawSubset draws.
 * Only the mapped columns are decoded either way.
 */
export async function loadHubQuestions(source: HubSource, options: HubOptions, reading: HubDrawOptions = {}): Promise<Result<ReadDataset>> {
  const downloaded = await fetchHubFiles(source, options);
  if (!downloaded.ok) return downloaded;
  const files = downloaded.value;
  if (reading.draw && files.length > 0 && files.every((f) => f.path.toLowerCase().endsWith('.parquet'))) {
    const look = reading.mapping ? undefined : await layoutOfFirstRows(files);
    if (look && !look.ok) return look;
    const found = reading.mapping ? { layout: 'mapped' as const, mapping: reading.mapping } : look?.value;
    const cols = found && roleColumns(found.mapping, hubSourceName(source));
    if (found && cols?.ok) {
      const drawn = await drawParquetQuestions({ files, cols: cols.value, columns: mappedColumns(found.mapping), keep: keptSliceColumns(hubSourceName(source)), choice: reading.draw, onDecoded: reading.onDecoded });
      if (drawn && !drawn.ok) return drawn;
      if (drawn) {
        for (const f of files) await keep(f.url, f, options.cache);
        const { questions, skipped, subset } = drawn.value;
        return { ok: true, value: { dataset: { name: source.repo.split('/')[1], source: hubSourceName(source), questions, subset }, layout: found.layout, mapping: found.mapping, skipped } };
      }
    }
  }
  const loaded = await readHubFiles(source, downloaded, options, { onlyMapped: reading.mapping ?? 'layout' });
  if (!loaded.ok) return loaded;
  const read = hubQuestions(loaded.value, reading.mapping);
  if (!read.ok || !reading.draw) return read;
  return { ok: true, value: { ...read.value, dataset: drawSubset(read.value.dataset, reading.draw) } };
}

export function hubPreview(loaded: HubTable, limit = 5): DatasetPreview {
  return previewTable(loaded.table, limit);
}

