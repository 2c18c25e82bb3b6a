/**
 * Dataset readers for the app and the CLI: CSV, TSV, JSON arrays and JSONL, in the benchmarks' own
 * layouts or a generic one, or any layout through a column mapping. Bad input gets a StageError
 * naming the file and line; rows that cannot become a question are skipped and listed.
 *
 * Ids: a row without an id gets `q` + its 1-based row number padded to 4 digits (q0001, q0002 …),
 * counted over the file's data rows including skipped ones, so ids stay put when filters change.
 * A repeated id keeps its first row (as the spec joins rows) and the later ones are listed as skipped.
 */
import { firstRowPerId, type Dataset, type Question, type Result, type StageError } from '../model/rows.ts';
import { keepableValue } from '../model/question-fields.ts';
import { type ColumnMapping, type ColumnRole, type Layout, asList, categoryOf, columnPaths, detectLayout, field } from './datasets/layouts.ts';
import { type Table, type TableRow, parseTable } from './datasets/table.ts';

export type { ColumnMapping, ColumnRole, Layout } from './datasets/layouts.ts';
export { parseTable, type Table } from './datasets/table.ts';
export { MAX_DATASET_BYTES, decodeDatasetBytes } from './datasets/encoding.ts';

export interface SkippedRow {
  where: string;
  reason: string;
}

export interface ReadDataset {
  dataset: Dataset;
  layout: Layout | 'mapped';
  mapping: ColumnMapping;
  skipped: SkippedRow[];
}

export function generatedId(row: number): string {
  return `q${String(row).padStart(4, '0')}`;
}

function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** The refusal of a row whose question or answer is JSON structure rather than text, naming the row and the field. */
function notText(where: string, role: 'question' | 'answer', column: string, value: object): { error: StageError } {
  const what = Array.isArray(value) ? 'a JSON array' : 'a JSON object';
  const shown = JSON.stringify(value);
  return {
    error: { kind: 'dataset', message: `the ${role} (field ${column}) is ${what}, not text: ${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}. Map the ${role} to a text field.`, where },
  };
}

const columnFor = (mapping: ColumnMapping, role: ColumnRole) => Object.keys(mapping).find((c) => mapping[c] === role);

/** The column (dotted path) a mapping gives each role. */
export interface RoleColumns {
  question: string;
  answer: string;
  id?: string;
  aliases?: string;
  category?: string;
  options?: string;
  skipIfPresent: string[];
}

/** The columns of each role in a mapping, or what it lacks (a question and an answer column). */
export function roleColumns(mapping: ColumnMapping, name: string): Result<RoleColumns> {
  const question = columnFor(mapping, 'question');
  const answer = columnFor(mapping, 'answer');
  if (!question) return { ok: false, error: { kind: 'dataset', message: 'Choose which column holds the question.', where: name } };
  if (!answer) return { ok: false, error: { kind: 'dataset', message: 'Choose which column holds the reference answer.', where: name } };
  const skipIfPresent = Object.keys(mapping).filter((c) => mapping[c] === 'skip-if-present');
  return { ok: true, value: { question, answer, id: columnFor(mapping, 'id'), aliases: columnFor(mapping, 'aliases'), category: columnFor(mapping, 'category'), options: columnFor(mapping, 'options'), skipIfPresent } };
}

/** The category a row counts under when a draw is stratified ('' for none), as its question would carry it. */
export function rowCategory(r: TableRow, cols: RoleColumns): string {
  return (cols.category ? categoryOf(field(r.record, cols.category)) : undefined) || '';
}

/**
 * One row as a question, or why it is skipped, or (a question or answer that is JSON structure)
 * an error that refuses the whole file. Repeated ids are the caller's to find.
 */
export function rowQuestion(r: TableRow, cols: RoleColumns, keep: readonly string[] = []): { question: Question } | { skip: SkippedRow } | { error: StageError } {
  const skipBy = cols.skipIfPresent.find((c) => text(field(r.record, c)) !== '');
  if (skipBy) return { skip: { where: r.where, reason: `has ${skipBy} (text-only questions are used)` } };
  const rawQuestion = field(r.record, cols.question);
  // A list or a record is no question: written out as JSON it would be asked as one, silently.
  if (typeof rawQuestion === 'object' && rawQuestion !== null) return notText(r.where, 'question', cols.question, rawQuestion);
  const question = text(rawQuestion);
  if (question === '') return { skip: { where: r.where, reason: `empty question (column ${cols.question})` } };
  const rawAnswer = field(r.record, cols.answer);
  // A list is an answer and its aliases (below); a record is not an answer.
  if (typeof rawAnswer === 'object' && rawAnswer !== null && !Array.isArray(rawAnswer)) return notText(r.where, 'answer', cols.answer, rawAnswer);
  // A list-valued answer (PopQA, NQ-open): the first item is the answer, the others aliases.
  const answers = Array.isArray(rawAnswer) || (typeof rawAnswer === 'string' && rawAnswer.trim().startsWith('[')) ? asList(rawAnswer) : [text(rawAnswer)];
  const answer = answers[0] ?? '';
  if (answer === '') return { skip: { where: r.where, reason: `empty answer (column ${cols.answer})` } };
  const id = (cols.id ? text(field(r.record, cols.id)) : '') || generatedId(r.row);
  const aliases = [...answers.slice(1), ...(cols.aliases ? asList(field(r.record, cols.aliases)) : [])].filter((a, i, all) => a !== answer && all.indexOf(a) === i);
  const q: Question = { id, question, answer };
  if (aliases.length > 0) q.aliases = aliases;
  const category = cols.category ? categoryOf(field(r.record, cols.category)) : undefined;
  if (category) q.category = category;
  const options = cols.options ? asList(field(r.record, cols.options)) : [];
  if (options.length > 0) q.options = options;
  // Columns kept for slicing the report (hub/catalogue.ts `slices`): short text or numbers only.
  for (const c of keep) {
    const v = field(r.record, c);
    if (keepableValue(v)) (q.fields ??= {})[c] = v;
  }
  return { question: q };
}

/** Builds questions from a parsed table with an explicit column → role mapping. */
export function applyColumnMapping(table: Table, mapping: ColumnMapping, name: string, keep: readonly string[] = []): Result<ReadDataset> {
  const cols = roleColumns(mapping, name);
  if (!cols.ok) return cols;
  // Each row in order: skipped with a reason, or a question; a repeated id is skipped below.
  const read: ({ skip: SkippedRow } | { question: Question; where: string })[] = [];
  for (const r of table.rows) {
    const one = rowQuestion(r, cols.value, keep);
    if ('error' in one) return { ok: false, error: one.error };
    read.push('question' in one ? { question: one.question, where: r.where } : one);
  }
  const repeats = new Set<(typeof read)[number]>();
  firstRowPerId(read.filter((e) => 'question' in e), (e) => e.question.id, (later) => repeats.add(later));
  const questions: Question[] = [];
  const skippedRows: SkippedRow[] = [];
  for (const e of read) {
    if ('skip' in e) skippedRows.push(e.skip);
    else if (repeats.has(e)) skippedRows.push({ where: e.where, reason: `repeats id ${e.question.id} (the first row with it is kept)` });
    else questions.push(e.question);
  }
  return mappedDataset(questions, skippedRows, name, mapping);
}

/** The questions read with a mapping, or why none could be. */
function mappedDataset(questions: Question[], skipped: SkippedRow[], name: string, mapping: ColumnMapping): Result<ReadDataset> {
  const where = name;
  if (questions.length === 0) {
    const why = skipped[0] ? ` First problem: ${skipped[0].where}: ${skipped[0].reason}.` : '';
    return { ok: false, error: { kind: 'dataset', message: `No usable questions in the file.${why}`, where } };
  }
  return { ok: true, value: { dataset: { name: name.replace(/\.[^.]+$/, ''), questions, source: name }, layout: 'mapped', mapping, skipped } };
}

/** Reads a dataset file: its own layout when recognised, else the given mapping, else an error that asks for one. */
export function readDataset(textContent: string | Uint8Array, fileName: string, mapping?: ColumnMapping): Result<ReadDataset> {
  const table = parseTable(textContent, fileName);
  if (!table.ok) return table;
  return datasetFromTable(table.value, fileName, mapping);
}

/** Questions from rows already parsed (a file, or a hub dataset's Parquet shards), as readDataset does. */
export function datasetFromTable(table: Table, name: string, mapping?: ColumnMapping, keep: readonly string[] = []): Result<ReadDataset> {
  if (table.rows.length === 0) return { ok: false, error: { kind: 'dataset', message: 'The file has no rows.', where: name } };
  if (mapping) return applyColumnMapping(table, mapping, name, keep);
  const detected = detectLayout(table);
  if (!detected) {
    return {
      ok: false,
      error: {
        kind: 'dataset',
        message: `Unrecognised layout (columns: ${table.columns.join(', ')}): map the columns to question and answer.`,
        where: name,
      },
    };
  }
  const r = applyColumnMapping(table, detected.mapping, name, keep);
  return r.ok ? { ok: true, value: { ...r.value, layout: detected.layout } } : r;
}

export interface DatasetPreview {
  format: Table['format'];
  columns: string[];
  rows: Record<string, unknown>[];
  totalRows: number;
  layout?: Layout;
  suggestedMapping: ColumnMapping;
}

/** The first rows and a suggested mapping, for a column-mapping screen. */
export function previewDataset(textContent: string | Uint8Array, fileName: string, limit = 5): Result<DatasetPreview> {
  const table = parseTable(textContent, fileName);
  if (!table.ok) return table;
  return { ok: true, value: previewTable(table.value, limit) };
}

/** previewDataset for rows already parsed. */
export function previewTable(table: Table, limit = 5): DatasetPreview {
  const detected = detectLayout(table);
  return {
    format: table.format,
    columns: columnPaths(table),
    rows: table.rows.slice(0, limit).map((r) => r.record),
    totalRows: table.rows.length,
    layout: detected?.layout,
    suggestedMapping: detected?.mapping ?? {},
  };
}
