/**
 * Parquet dataset files (the Hugging Face hub's own format) as a Table, read with hyparquet (a
 * small pure-JS reader: no WASM, no native code, so it runs the same in a worker and in Node).
 * Values become what the JSON readers would give: int64 as a number (or a string past 2^53),
 * dates as ISO text, nested structs and lists as objects and arrays, so the layouts' dotted paths
 * ("answer.aliases") reach into them as they do in JSONL.
 *
 * Parquet compresses runs and repeated values so well that a 37 KB file can declare 12 million
 * rows, and decoding them all took 4.4 GB before the process died. So the footer (a few bytes to
 * read) is checked first: a file whose rows, decoded bytes or values exceed the bounds below is
 * refused with its declared size before anything is decoded, and a reader that knows which
 * columns it needs decodes only those.
 */
import { parquetMetadata, parquetReadObjects, parquetSchema, type FileMetaData } from 'hyparquet';
import type { Result, StageError } from '../../model/rows.ts';
import { MAX_REPORT_QUESTIONS } from '../../model/scoring-limits.ts';
import { MAX_DATASET_BYTES } from './encoding.ts';
import type { Table, TableRow } from './table.ts';
import { errorMessage } from '../../model/app-error.ts';

/** Rows of a dataset, over all its files: no report holds more questions than this. */
export const MAX_DATASET_ROWS = MAX_REPORT_QUESTIONS;
/** Uncompressed bytes of the columns read: four times the largest file (text compresses about that much). */
export const MAX_PARQUET_DECODED_BYTES = 4 * MAX_DATASET_BYTES;
/** Values of the columns read (a list column holds several per row): 32 per row at the row bound. */
export const MAX_PARQUET_VALUES = 32 * MAX_DATASET_ROWS;

export interface ParquetReadOptions {
  /** Read only these top-level columns (names the file lacks are passed over); all when absent. */
  columns?: readonly string[];
  /** Read only the rows before this one (a look at the first rows). */
  rowEnd?: number;
}

const fail = (message: string, where: string): { ok: false; error: StageError } => ({ ok: false, error: { kind: 'dataset', message, where } });

/** A Parquet value as plain JSON-like data. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = plain(x);
    return out;
  }
  return v;
}

/** Whether the bytes end like a Parquet file (a file cut short while downloading does not). */
export function looksLikeParquet(bytes: Uint8Array): boolean {
  const magic = (at: number) => bytes[at] === 0x50 && bytes[at + 1] === 0x41 && bytes[at + 2] === 0x52 && bytes[at + 3] === 0x31; // "PAR1"
  return bytes.length >= 12 && magic(0) && magic(bytes.length - 4);
}

const count = (n: bigint | number) => n.toLocaleString('en-US');

/**
 * Why the file is not decoded: its declared rows (with `rowsBefore` from earlier shards of the
 * same split), or (unless `rowsOnly`) the uncompressed bytes or values of the columns to read
 * (`columns`, else all) in the row groups to read (`groups`, else all), past the bounds.
 */
export function parquetBoundProblem(
  metadata: FileMetaData,
  fileName: string,
  rowsBefore: number,
  { columns, rowsOnly = false, groups }: { columns?: ReadonlySet<string>; rowsOnly?: boolean; groups?: ReadonlySet<number> } = {},
): string | undefined {
  // The file's count and its row groups' sum may disagree in a forged footer: the larger is believed.
  const groupRows = metadata.row_groups.reduce((sum, g) => sum + g.num_rows, 0n);
  const declared = metadata.num_rows > groupRows ? metadata.num_rows : groupRows;
  const rows = declared + BigInt(rowsBefore);
  if (rows > BigInt(MAX_DATASET_ROWS)) {
    const earlier = rowsBefore > 0 ? ` (after ${count(rowsBefore)} in the split's earlier files)` : '';
    return `${fileName} declares ${count(declared)} rows${earlier}; a dataset may have at most ${count(MAX_DATASET_ROWS)} rows (no report holds more questions). Choose a smaller split or file.`;
  }
  if (rowsOnly) return undefined;
  let bytes = 0n;
  let values = 0n;
  for (const [index, group] of metadata.row_groups.entries()) {
    if (groups && !groups.has(index)) continue;
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (!meta || (columns && !columns.has(meta.path_in_schema[0]))) continue;
      bytes += meta.total_uncompressed_size;
      values += meta.num_values;
    }
  }
  if (bytes > BigInt(MAX_PARQUET_DECODED_BYTES)) {
    return `${fileName} holds ${count((bytes + 1048575n) / 1048576n)} MB once uncompressed; at most ${count(MAX_PARQUET_DECODED_BYTES / 1048576)} MB is decoded. Choose a smaller split or file.`;
  }
  if (values > BigInt(MAX_PARQUET_VALUES)) {
    return `${fileName} declares ${count(values)} values; at most ${count(MAX_PARQUET_VALUES)} are decoded. Choose a smaller split or file.`;
  }
  return undefined;
}

/**
 * Reads the rows of a Parquet file (all its columns, or `options.columns`), once its footer is
 * within the bounds. `rowOffset` numbers the rows after earlier shards of the same split, so
 * generated ids and "where" stay unique across files, and counts them against the row bound.
 */
export async function parquetTable(bytes: Uint8Array, fileName: string, rowOffset = 0, options: ParquetReadOptions = {}): Promise<Result<Table>> {
  if (!looksLikeParquet(bytes)) {
    return fail(
      `Not a complete Parquet file (${bytes.length.toLocaleString('en-US')} bytes without the PAR1 markers at both ends): it may have been cut short while downloading. Load it again.`,
      fileName,
    );
  }
  // hyparquet wants an ArrayBuffer of exactly the file (a view's buffer may be larger).
  const file = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
  let records: Record<string, unknown>[];
  let columns: string[];
  let metadata: FileMetaData;
  let wanted: string[] | undefined;
  try {
    metadata = parquetMetadata(file);
    columns = parquetSchema(metadata).children.map((c) => c.element.name);
  } catch (e) {
    return fail(`Could not read this Parquet file: ${errorMessage(e)}.`, fileName);
  }
  if (options.columns) {
    const asked = new Set(options.columns);
    wanted = columns.filter((c) => asked.has(c));
    // None of them in the file: all are read, so the mapping's complaint can list what there is.
    if (wanted.length === 0) wanted = undefined;
  }
  // A look at the first rows decodes the first pages of a flat column, not the whole column, so
  // only its rows are bounded (a row group of millions may still be walked through for it).
  const problem = parquetBoundProblem(metadata, fileName, rowOffset, { columns: wanted && new Set(wanted), rowsOnly: options.rowEnd !== undefined });
  if (problem) return fail(problem, fileName);
  try {
    records = (await parquetReadObjects({ file, metadata, ...(wanted ? { columns: wanted } : {}), ...(options.rowEnd !== undefined ? { rowStart: 0, rowEnd: options.rowEnd } : {}) })) as Record<string, unknown>[];
  } catch (e) {
    return fail(`Could not read this Parquet file: ${errorMessage(e)}.`, fileName);
  }
  const rows: TableRow[] = records.map((record, i) => ({
    row: rowOffset + i + 1,
    where: `${fileName} row ${i + 1}`,
    record: plain(record) as Record<string, unknown>,
  }));
  // With some columns read, the table still names them all (a mapping's complaint lists them).
  return { ok: true, value: { format: 'parquet', columns: rows.length > 0 && !wanted ? Object.keys(rows[0].record) : columns, rows } };
}

/** A Parquet file whose footer has been read, and none of its rows. */
export interface OpenedParquet {
  name: string;
  file: ArrayBuffer;
  metadata: FileMetaData;
  /** Its top-level columns. */
  columns: string[];
  /** The first row of each row group, and the rows in all (the groups' sum). */
  groupStarts: number[];
  rows: number;
}

/** Reads a Parquet file's footer (the rows bound is the caller's: it knows the earlier shards). */
export function openParquet(bytes: Uint8Array, fileName: string): Result<OpenedParquet> {
  if (!looksLikeParquet(bytes)) return fail(`Not a complete Parquet file (${bytes.length.toLocaleString('en-US')} bytes without the PAR1 markers at both ends): it may have been cut short while downloading. Load it again.`, fileName);
  const file = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
  try {
    const metadata = parquetMetadata(file);
    const groupStarts: number[] = [];
    let rows = 0;
    for (const g of metadata.row_groups) {
      groupStarts.push(rows);
      rows += Number(g.num_rows);
    }
    return { ok: true, value: { name: fileName, file, metadata, columns: parquetSchema(metadata).children.map((c) => c.element.name), groupStarts, rows } };
  } catch (e) {
    return fail(`Could not read this Parquet file: ${errorMessage(e)}.`, fileName);
  }
}

/**
 * The rows of one row group, only `columns` decoded, numbered after `rowOffset` rows of earlier
 * shards as parquetTable numbers them. `onChunk` hears of every column chunk the reader decodes
 * (hyparquet's own callback), so a caller can tell which row groups were read.
 */
export async function parquetGroupRows(p: OpenedParquet, group: number, columns: readonly string[], rowOffset: number, onChunk?: (column: string, rowStart: number) => void): Promise<Result<TableRow[]>> {
  const rowStart = p.groupStarts[group];
  const rowEnd = rowStart + Number(p.metadata.row_groups[group].num_rows);
  let records: Record<string, unknown>[];
  try {
    records = (await parquetReadObjects({
      file: p.file, metadata: p.metadata, columns: [...columns], rowStart, rowEnd,
      ...(onChunk ? { onChunk: (c: { columnName: string; rowStart: number }) => onChunk(c.columnName, c.rowStart) } : {}),
    })) as Record<string, unknown>[];
  } catch (e) {
    return fail(`Could not read this Parquet file: ${errorMessage(e)}.`, p.name);
  }
  return { ok: true, value: records.map((record, k) => ({ row: rowOffset + rowStart + k + 1, where: `${p.name} row ${rowStart + k + 1}`, record: plain(record) as Record<string, unknown> })) };
}
