/**
 * The one CSV writer (RFC 4180, CRLF between rows) and its spreadsheet safety. Every CSV the app
 * writes goes through `toCsv`.
 *
 * Formula injection: a spreadsheet runs a cell that starts with =, +, - or @ as a formula, and
 * treats a leading tab or CR as the start of one too; some also skip leading spaces and line
 * breaks before deciding. A text cell that starts with any of these, directly or after leading
 * whitespace, control or invisible format characters, multi-line cells included, is written with a leading apostrophe (OWASP's advice):
 * spreadsheets then take it as text and never evaluate it, at the cost of a visible apostrophe in
 * some of them. Numbers are written as numbers (a negative number is a number, not a formula). papaparse's own `escapeFormulae` tests /^[=+\-@\t\r].*$/, whose `.` stops at a
 * line break, so "=1+1\nx" slipped through it: hence this writer.
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@]/;
// Whitespace, control characters (\x1c–\x1f count as whitespace in some readers) and invisible
// format characters (zero-width space, BOM, word joiner): a reader may skip any of them before
// deciding, so "\u200b=1" and "\x1c=1" are formulas too.
const LEADING_IGNORABLE = /^[\s\p{Cc}\p{Cf}]+/u;

/** Whether a text cell could be read as a formula by a spreadsheet. */
export function looksLikeFormula(text: string): boolean {
  if (text.startsWith('\t') || text.startsWith('\r')) return true;
  return FORMULA_START.test(text.replace(LEADING_IGNORABLE, ''));
}

/** A cell as CSV text: escaped against formulas, then quoted where RFC 4180 needs it. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  // NaN and ±Infinity have no spreadsheet value: an empty cell, not the word "NaN".
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = looksLikeFormula(value) ? `'${value}` : value;
  // Leading or trailing spaces are quoted too, so tools that trim unquoted cells keep them.
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRow(cells: readonly CsvValue[]): string {
  // A row of one empty cell would be an empty line, which readers skip: quote it.
  if (cells.length === 1 && csvCell(cells[0]) === '') return '""';
  return cells.map(csvCell).join(',');
}

/** The header row and the data rows as CSV text, rows separated by CRLF, no trailing line break. */
export function toCsv(fields: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [fields, ...rows].map(csvRow).join('\r\n');
}
