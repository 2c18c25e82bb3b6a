/**
 * JSONL text (one string, chunks of one too long for a string, or its lines already split) as rows: every non-blank line one JSON object, read by the caller's `readRow`, the
 * first row per id kept and later ones listed (file, line, id). Lines are split at \n (a \r before
 * it is JSON whitespace); blank lines are skipped; one byte order mark at the start is dropped.
 * UTF-16 text read as UTF-8 is named as such rather than reported as bad JSON on line 1.
 * Anything else malformed stops the read with the file, the line and what is wrong.
 *
 * Each line goes through JSON.parse: measured on 40,000 clustered rows × 50 samples, V8's parser
 * costs about what a hand-written scanner needs only to walk the bytes and check the strings it
 * would skip, so a scanner that also builds the kept values does not pay for itself.
 */
import { firstRowPerId, type Result, type StageError } from '../model/rows';
import { FieldError, describe, type Obj } from './authors-fields';
import { looksLikeMisreadUtf16 } from './datasets/encoding';
import { errorMessage } from '../model/app-error';

export interface Located<T> {
  row: T;
  /** 1-based line in its file. */
  line: number;
}

export interface DuplicateRow {
  file: string;
  id: string;
  line: number;
  firstLine: number;
}

export interface ParsedFile<T> {
  file: string;
  rows: Located<T>[];
  duplicates: DuplicateRow[];
}

function badInput(file: string, line: number, message: string): StageError {
  return { kind: 'bad-input', message: `${file}, line ${line}: ${message}`, where: `${file}:${line}` };
}

/**
 * A file's lines already split at \n (without the \n), as the CLI decodes them one by one from
 * the file's bytes (cli/input-text.ts): a line decoded alone is a small string JSON.parse reads
 * at once, where a slice of one 128 MB string costs the whole file's decoding first and, measured
 * on 40,000 clustered rows, twice the parse time besides.
 */
export interface JsonlLines {
  lines: Iterable<string>;
}

/** What the JSONL readers take: the text, its chunks, or its lines. */
export type JsonlText = string | Iterable<string> | JsonlLines;

const isLines = (text: JsonlText): text is JsonlLines => typeof text === 'object' && 'lines' in text;

/** A line of JSONL read: its row, or what is wrong with it in words (the reader names the line). */
export type JsonlLine<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * One line of JSONL, for every reader of such files (this one, the CLI's streamed rows, its
 * caches): null when blank, else the line's JSON object through `readRow`, or what is wrong: bad
 * JSON, not an object, a field `readRow` refuses (its FieldError). Any other error from `readRow`
 * is not the line's fault and propagates.
 */
export function parseJsonlLine<T>(raw: string, readRow: (obj: Obj) => T): JsonlLine<T> | null {
  // A regex test stops at the first non-blank character; trim() would copy the whole line.
  if (!/\S/.test(raw)) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return { ok: false, message: `bad JSON (${(e as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: `expected a JSON object, got ${describe(value)}` };
  try {
    return { ok: true, value: readRow(value as Obj) };
  } catch (e) {
    if (e instanceof FieldError) return { ok: false, message: e.message };
    throw e;
  }
}

/** A line's JSON object; undefined when it is blank, torn or not an object (for caches that drop such lines). */
export function jsonObjectOf(raw: string): Obj | undefined {
  const read = parseJsonlLine(raw, (obj) => obj);
  return read?.ok ? read.value : undefined;
}

/** The text without the byte order mark it may start with. */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** One line: its row, null when blank, or the error naming the line. */
function readLine<T>(raw: string, file: string, line: number, readRow: (obj: Obj) => T): Result<T> | null {
  let read: JsonlLine<T> | null;
  try {
    read = parseJsonlLine(raw, readRow);
  } catch (e) {
    // Not a field the reader checks (a limit of the engine, a bug): still say which row caused it.
    throw new Error(`${file}, line ${line}: ${errorMessage(e)}`, { cause: e });
  }
  return read && !read.ok ? { ok: false, error: badInput(file, line, read.message) } : read;
}

/**
 * The text's lines, split at \n, the byte order mark dropped. Text too long for one string (a
 * file over V8's 512 MB string limit) comes as chunks: a line may run across chunks.
 */
function* linesOf(text: JsonlText): Generator<string> {
  if (isLines(text)) {
    let first = true;
    for (const line of text.lines) {
      yield first ? withoutBom(line) : line;
      first = false;
    }
    return;
  }
  if (typeof text === 'string') {
    let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      yield text.slice(start, end);
      start = end + 1;
    }
    return;
  }
  // Only each new chunk is searched: the carried start of a line has no line break, and joining
  // it to every chunk before searching would copy a long line again for each chunk it spans.
  let carry = '';
  let first = true;
  for (let chunk of text) {
    if (first && chunk.length > 0) {
      chunk = withoutBom(chunk);
      first = false;
    }
    let end = chunk.indexOf('\n');
    if (end < 0) {
      carry += chunk;
      continue;
    }
    yield carry + chunk.slice(0, end);
    let start = end + 1;
    for (end = chunk.indexOf('\n', start); end >= 0; end = chunk.indexOf('\n', start)) {
      yield chunk.slice(start, end);
      start = end + 1;
    }
    carry = chunk.slice(start);
  }
  yield carry;
}

/** The text's first chunk (where the UTF-16 check looks), and the whole text again. */
function openingOf(text: JsonlText): { opening: string; rest: JsonlText } {
  if (typeof text === 'string') return { opening: text, rest: text };
  if (isLines(text)) {
    const { opening, rest } = openingOf(text.lines);
    return { opening, rest: { lines: rest as Iterable<string> } };
  }
  const chunks = text[Symbol.iterator]();
  const first = chunks.next();
  if (first.done) return { opening: '', rest: [] };
  return {
    opening: first.value,
    rest: (function* () {
      yield first.value;
      for (let c = chunks.next(); !c.done; c = chunks.next()) yield c.value;
    })(),
  };
}

/** Parses each non-blank line as an object, keeps the first row per id and lists the others. */
export function parseJsonl<T extends { id: string }>(text: JsonlText, file: string, readRow: (obj: Obj) => T): Result<ParsedFile<T>> {
  const { opening, rest } = openingOf(text);
  if (looksLikeMisreadUtf16(opening)) {
    return { ok: false, error: { kind: 'bad-input', message: `${file}: looks like UTF-16 text, which is not supported here: save it as UTF-8`, where: file } };
  }
  const all: Located<T>[] = [];
  let line = 0;
  for (const raw of linesOf(rest)) {
    line++;
    const read = readLine(raw, file, line, readRow);
    if (read === null) continue;
    if (!read.ok) return read;
    all.push({ row: read.value, line });
  }
  const duplicates: DuplicateRow[] = [];
  const rows = firstRowPerId(all, (r) => r.row.id, (later, first) => duplicates.push({ file, id: later.row.id, line: later.line, firstLine: first.line }));
  if (rows.length === 0) return { ok: false, error: { kind: 'bad-input', message: `${file}: no rows`, where: file } };
  return { ok: true, value: { file, rows, duplicates } };
}
