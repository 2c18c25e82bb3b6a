/**
 * Turns a dataset file (CSV, JSON array, JSONL) into rows of records, each with the place it came
 * from ("file.csv line 12", "file.json item 3") so every later complaint can say where.
 */
import Papa from 'papaparse';
import type { Result } from '../../model/rows.ts';
import { datasetText } from './encoding.ts';

export type TableFormat = 'csv' | 'tsv' | 'json' | 'jsonl' | 'parquet';

export interface TableRow {
  /** 1-based position among data rows (used for generated ids). */
  row: number;
  where: string;
  record: Record<string, unknown>;
}

export interface Table {
  format: TableFormat;
  columns: string[];
  rows: TableRow[];
}

export function formatOf(fileName: string, text: string): TableFormat {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.json')) return text.trimStart().startsWith('[') ? 'json' : 'jsonl';
  if (lower.endsWith('.tsv')) return 'tsv';
  if (lower.endsWith('.csv')) return 'csv';
  const t = text.trimStart();
  if (t.startsWith('[')) return 'json';
  if (t.startsWith('{')) return 'jsonl';
  return 'csv';
}

const fail = (message: string, where: string): Result<Table> => ({ ok: false, error: { kind: 'dataset', message, where } });

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function columnsOf(rows: TableRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows.slice(0, 200)) for (const k of Object.keys(r.record)) seen.add(k);
  return [...seen];
}

function parseCsv(text: string, fileName: string, delimiter?: string): Result<Table> {
  const rows: TableRow[] = [];
  let error: Result<Table> | undefined;
  const body = text.replace(/^\uFEFF/, '');
  // Offsets count from the end of the header line (a header spanning lines is not supported).
  let start = body.indexOf('\n') + 1;
  let line = 2;
  let header: string[] = [];
  Papa.parse<Record<string, unknown>>(body, {
    header: true,
    skipEmptyLines: 'greedy',
    delimiter,
    step: (res, parser) => {
      if (header.length === 0) header = res.meta.fields ?? [];
      // Lines advance by the newlines inside the previous record (quoted fields may span lines).
      const end = res.meta.cursor;
      const here = line;
      const consumed = body.slice(start, end);
      const leading = consumed.length - consumed.replace(/^[\r\n]+/, '').length;
      const firstLine = here + lineAt(consumed.slice(0, leading), leading) - 1;
      line = here + lineAt(consumed, consumed.length) - 1;
      start = end;
      const bad = res.errors.find((e) => e.code !== 'UndetectableDelimiter');
      if (bad) {
        error = fail(`${bad.message}.`, `${fileName} line ${firstLine}`);
        parser.abort();
        return;
      }
      rows.push({ row: rows.length + 1, where: `${fileName} line ${firstLine}`, record: res.data });
    },
  });
  if (error) return error;
  if (header.length === 0 && body.trim() !== '') header = Papa.parse<string[]>(body.split('\n')[0], { delimiter }).data[0] ?? [];
  if (header.length === 0) return fail('The file is empty or has no header row.', `${fileName} line 1`);
  return { ok: true, value: { format: delimiter === '\t' ? 'tsv' : 'csv', columns: header, rows } };
}

/**
 * Where JSON.parse failed, for engines whose message gives no position (Node 20): the shortest
 * prefix that fails for a reason other than ending early contains the bad token. Bisection keeps
 * this to a few dozen parses, and it runs only for a file that is already known to be bad.
 */
function errorOffset(text: string): number | null {
  const failsInside = (len: number) => {
    try {
      JSON.parse(text.slice(0, len));
      return false;
    } catch (e) {
      return !/end of (JSON )?input|Unterminated|Expected .* after/i.test((e as Error).message);
    }
  };
  if (!failsInside(text.length)) return null;
  let lo = 0;
  let hi = text.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (failsInside(mid)) hi = mid;
    else lo = mid;
  }
  return hi - 1;
}

function parseJsonArray(text: string, fileName: string): Result<Table> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const at = m ? Number(m[1]) : errorOffset(text);
    const where = at === null ? fileName : `${fileName} line ${lineAt(text, at)}`;
    return fail(`Not valid JSON: ${(e as Error).message}`, where);
  }
  if (!Array.isArray(data)) return fail('A JSON dataset must be an array of objects (one per question).', fileName);
  const rows: TableRow[] = [];
  for (const [i, item] of data.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return fail('Each item must be an object.', `${fileName} item ${i + 1}`);
    rows.push({ row: i + 1, where: `${fileName} item ${i + 1}`, record: item as Record<string, unknown> });
  }
  return { ok: true, value: { format: 'json', columns: columnsOf(rows), rows } };
}

function parseJsonl(text: string, fileName: string): Result<Table> {
  const rows: TableRow[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (const [i, raw] of lines.entries()) {
    const l = raw.trim();
    if (l === '') continue;
    const where = `${fileName} line ${i + 1}`;
    let item: unknown;
    try {
      item = JSON.parse(l);
    } catch (e) {
      return fail(`Not valid JSON: ${(e as Error).message}`, where);
    }
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return fail('Each line must be a JSON object.', where);
    rows.push({ row: rows.length + 1, where, record: item as Record<string, unknown> });
  }
  return { ok: true, value: { format: 'jsonl', columns: columnsOf(rows), rows } };
}

/** A dataset file as text or as its bytes (decoded by its BOM; see encoding.ts), size-checked first. */
export function parseTable(content: string | Uint8Array, fileName: string): Result<Table> {
  const decoded = datasetText(content, fileName);
  if (!decoded.ok) return decoded;
  const text = decoded.value;
  const format = formatOf(fileName, text);
  if (format === 'json') return parseJsonArray(text, fileName);
  if (format === 'jsonl') return parseJsonl(text, fileName);
  return parseCsv(text, fileName, format === 'tsv' ? '\t' : undefined);
}
