/**
 * Parquet dataset files (the Hugging Face hub's own format) as a Table, read with hyparquet (a
 * small pure-JS reader: no WASM, no native code, so it runs the same in a worker and in Node).
 * Values become what the JSON readers would give: int64 as a number (or a string past 2^53),
 * dates as ISO text, nested structs and lists as objects and arrays, so the layouts' dotted paths
 * ("answer.aliases") reach into them as they do in JSONL.
 */
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { Result } from '../../model/rows.ts';
import type { Table, TableRow } from './table.ts';

const fail = (message: string, where: string): Result<Table> => ({ ok: false, error: { kind: 'dataset', message, where } });

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

/**
 * Reads every row of a Parquet file. `rowOffset` numbers the rows after earlier shards of the
 * same split, so generated ids and "where" stay unique across files.
 */
export async function parquetTable(bytes: Uint8Array, fileName: string, rowOffset = 0): Promise<Result<Table>> {
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
  try {
    const metadata = parquetMetadata(file);
    columns = parquetSchema(metadata).children.map((c) => c.element.name);
    records = (await parquetReadObjects({ file, metadata })) as Record<string, unknown>[];
  } catch (e) {
    return fail(`Could not read this Parquet file: ${e instanceof Error ? e.message : String(e)}.`, fileName);
  }
  const rows: TableRow[] = records.map((record, i) => ({
    row: rowOffset + i + 1,
    where: `${fileName} row ${i + 1}`,
    record: plain(record) as Record<string, unknown>,
  }));
  return { ok: true, value: { format: 'parquet', columns: rows.length > 0 ? Object.keys(rows[0].record) : columns, rows } };
}
