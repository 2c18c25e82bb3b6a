/**
 * The edges of a dataset file before any parsing: its size and its text encoding. A file read as
 * bytes is decoded by its byte order mark (UTF-8, UTF-16 LE or BE; without one, UTF-16 is
 * recognised by its zero bytes, else UTF-8). Text already decoded elsewhere loses a UTF-8 BOM, and
 * UTF-16 that was read as UTF-8 is named as such instead of failing later as "Too few fields".
 * UTF-32 (by its BOM) is named as unsupported rather than read as UTF-16 with zero characters.
 * A user's file is measured before a byte of it is read (readDatasetFile).
 */
import type { Result } from '../../model/rows.ts';
import { utf8Length } from '../utf8-length.ts';

/** The largest dataset file read, in bytes (the one place this limit is stated). */
export const MAX_DATASET_BYTES = 64 * 1024 * 1024;

export type DatasetEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

const describeSize = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const tooLarge = (fileName: string, bytes: number): Result<never> => ({
  ok: false,
  error: { kind: 'dataset', message: `${fileName} is ${describeSize(bytes)}; a dataset file may be at most ${describeSize(MAX_DATASET_BYTES)}.`, where: fileName },
});

/** The encoding of a file's bytes: its BOM, else UTF-16's zero bytes beside ASCII, else UTF-8. */
export function detectEncoding(bytes: Uint8Array): DatasetEncoding {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  // UTF-8 text never holds a zero byte in practice; UTF-16 of mostly ASCII text has one in every pair.
  const pairs = Math.min(bytes.length, 1024) >> 1;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < pairs; i++) {
    if (bytes[2 * i] === 0) evenZero++;
    if (bytes[2 * i + 1] === 0) oddZero++;
  }
  if (pairs > 0 && oddZero >= pairs / 2 && evenZero === 0) return 'utf-16le';
  if (pairs > 0 && evenZero >= pairs / 2 && oddZero === 0) return 'utf-16be';
  return 'utf-8';
}

/** UTF-32's BOM: FF FE 00 00 would otherwise pass for UTF-16 LE's BOM and a NUL. */
function isUtf32(bytes: Uint8Array): boolean {
  const [a, b, c, d] = bytes;
  return (a === 0xff && b === 0xfe && c === 0 && d === 0) || (a === 0 && b === 0 && c === 0xfe && d === 0xff);
}

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * What a binary file picked as a dataset is, by its first bytes, so the message says what to do
 * (a workbook saved as .csv by name only is the common case), or null for text.
 */
function binaryKind(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'a ZIP archive (an Excel or OpenDocument workbook?), not text: save it as CSV (UTF-8)';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) return 'an old-style Excel workbook (.xls), not text: save it as CSV (UTF-8)';
  if (startsWith(bytes, [0x50, 0x41, 0x52, 0x31])) return 'a Parquet file, which is read from a dataset hub but not from a local file here: convert it to CSV or JSONL';
  if (startsWith(bytes, [0x1f, 0x8b])) return 'gzip-compressed: uncompress it first';
  return null;
}

const refuseFile = (fileName: string, what: string): Result<never> => ({ ok: false, error: { kind: 'dataset', message: `${fileName} is ${what}.`, where: fileName } });

/** A dataset file's bytes as text, or an error naming the file when it is over the size limit or not text. */
export function decodeDatasetBytes(bytes: Uint8Array, fileName: string): Result<string> {
  if (bytes.length > MAX_DATASET_BYTES) return tooLarge(fileName, bytes.length);
  if (isUtf32(bytes)) return refuseFile(fileName, 'UTF-32 text, which is not supported here: save it as UTF-8');
  const binary = binaryKind(bytes);
  if (binary) return refuseFile(fileName, binary);
  // The decoder drops the BOM; malformed sequences become U+FFFD rather than failing the file.
  const text = new TextDecoder(detectEncoding(bytes)).decode(bytes);
  // Zero bytes that are not UTF-16's (detectEncoding found none in its pattern) mean a binary file.
  if (text.slice(0, 4096).includes('\u0000')) return refuseFile(fileName, 'not a text file (it holds zero bytes): save it as CSV, TSV, JSON or JSONL in UTF-8');
  return { ok: true, value: text };
}

/**
 * Whether text is UTF-16 that was decoded as UTF-8: its BOM became two U+FFFD, or the zero bytes
 * of its ASCII characters became U+0000 (which no text file of questions holds).
 */
export function looksLikeMisreadUtf16(text: string): boolean {
  return text.startsWith('\uFFFD\uFFFD') || text.slice(0, 1024).includes('\u0000');
}

/**
 * Text given already decoded: checked against the size limit (as UTF-8), without a leading BOM,
 * and refused with a clear message when it is UTF-16 that was decoded as UTF-8 (its BOM became two
 * U+FFFD, or its zero bytes became U+0000).
 */
export function checkDatasetText(text: string, fileName: string): Result<string> {
  // A string of L code units is at least L bytes in UTF-8, at most 3L: count only when it can matter.
  if (text.length * 3 > MAX_DATASET_BYTES) {
    const bytes = text.length > MAX_DATASET_BYTES ? text.length : utf8Length(text);
    if (bytes > MAX_DATASET_BYTES) return tooLarge(fileName, bytes);
  }
  if (looksLikeMisreadUtf16(text)) {
    return {
      ok: false,
      error: { kind: 'dataset', message: `${fileName} looks like UTF-16 text that was read as UTF-8, which is not supported here: save it as UTF-8.`, where: fileName },
    };
  }
  return { ok: true, value: text.replace(/^\uFEFF/, '') };
}

/**
 * A file the user picked, refused by its size before it is read (a 600 MB file is never loaded
 * into memory just to be refused), then decoded like any dataset's bytes.
 */
export async function readDatasetFile(file: Pick<File, 'name' | 'size' | 'arrayBuffer'>): Promise<Result<string>> {
  const bytes = await readDatasetBytes(file);
  return bytes.ok ? decodeDatasetBytes(bytes.value, file.name) : bytes;
}

/** A picked file's bytes, undecoded (for the dataset worker to decode), refused by its size before it is read. */
export async function readDatasetBytes(file: Pick<File, 'name' | 'size' | 'arrayBuffer'>): Promise<Result<Uint8Array>> {
  if (file.size > MAX_DATASET_BYTES) return tooLarge(file.name, file.size);
  try {
    return { ok: true, value: new Uint8Array(await file.arrayBuffer()) };
  } catch (e) {
    return { ok: false, error: { kind: 'dataset', message: `${file.name} could not be read: ${(e as Error).message}`, where: file.name } };
  }
}

/** Bytes are decoded, text is checked: either way the text a parser can take, or why not. */
export function datasetText(content: string | Uint8Array, fileName: string): Result<string> {
  return typeof content === 'string' ? checkDatasetText(content, fileName) : decodeDatasetBytes(content, fileName);
}
