/**
 * The benchmarks' own layouts (SimpleQA, PopQA, Humanity's Last Exam, TriviaQA, NQ-open), a
 * generic id/question/answer/aliases layout, and column mappings for anything else. Each layout
 * is a ColumnMapping plus a few rules (HLE rows with an image are skipped; list-valued answers
 * give the first item as the answer and the rest as aliases).
 */
import type { Table } from './table.ts';

export type Layout = 'simpleqa' | 'popqa' | 'hle' | 'triviaqa' | 'nq-open' | 'generic';
export type ColumnRole = 'id' | 'question' | 'answer' | 'aliases' | 'category' | 'options' | 'skip-if-present' | 'ignore';
/** Column (a dotted path reaches nested fields, e.g. "answer.aliases") → role. */
export type ColumnMapping = Record<string, ColumnRole>;

/** A value at a column: the key itself if present (flattened "Answer.Value"), else a nested walk. */
export function field(record: Record<string, unknown>, path: string): unknown {
  if (path in record) return record[path];
  let v: unknown = record;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** Every column path of a table, nested object fields included (one level), for mapping UIs. */
export function columnPaths(table: Table): string[] {
  const paths = new Set<string>();
  for (const r of table.rows.slice(0, 50)) {
    for (const [k, v] of Object.entries(r.record)) {
      paths.add(k);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) for (const sub of Object.keys(v)) paths.add(`${k}.${sub}`);
    }
  }
  for (const c of table.columns) paths.add(c);
  return [...paths];
}

function find(paths: string[], ...names: string[]): string | undefined {
  for (const n of names) {
    const hit = paths.find((p) => p.toLowerCase() === n);
    if (hit) return hit;
  }
  return undefined;
}

function looksLikeList(v: unknown): boolean {
  return Array.isArray(v) || (typeof v === 'string' && v.trim().startsWith('['));
}

/** Recognises a known layout from the columns (and, for NQ-open, the shape of `answer`). */
export function detectLayout(table: Table): { layout: Layout; mapping: ColumnMapping } | undefined {
  const paths = columnPaths(table);
  const has = (...names: string[]) => find(paths, ...names);
  const m = (entries: [string | undefined, ColumnRole][]): ColumnMapping =>
    Object.fromEntries(entries.filter((e): e is [string, ColumnRole] => e[0] !== undefined));

  if (has('problem') && has('answer')) {
    return { layout: 'simpleqa', mapping: m([[has('id'), 'id'], [has('problem'), 'question'], [has('answer'), 'answer'], [has('metadata'), 'category']]) };
  }
  if (has('question') && has('possible_answers')) {
    return { layout: 'popqa', mapping: m([[has('id'), 'id'], [has('question'), 'question'], [has('possible_answers'), 'answer']]) };
  }
  if (has('question') && has('answer') && has('answer_type')) {
    return {
      layout: 'hle',
      mapping: m([[has('id'), 'id'], [has('question'), 'question'], [has('answer'), 'answer'], [has('category'), 'category'], [has('image'), 'skip-if-present']]),
    };
  }
  const tqAnswer = has('answer.value');
  if (has('question') && tqAnswer) {
    return {
      layout: 'triviaqa',
      mapping: m([[has('question_id', 'questionid', 'id'), 'id'], [has('question'), 'question'], [tqAnswer, 'answer'], [has('answer.aliases'), 'aliases']]),
    };
  }
  const q = has('question', 'problem', 'prompt', 'q');
  const a = has('answer', 'gold_answer', 'gold', 'target', 'a');
  if (q && a && paths.length <= 3 && !has('id') && table.rows.length > 0 && looksLikeList(field(table.rows[0].record, a))) {
    return { layout: 'nq-open', mapping: m([[q, 'question'], [a, 'answer']]) };
  }
  if (q && a) {
    return {
      layout: 'generic',
      mapping: m([
        [has('id', 'qid', 'question_id', 'uid'), 'id'],
        [q, 'question'],
        [a, 'answer'],
        [has('aliases', 'answer_aliases', 'gold_answer_aliases', 'answers', 'possible_answers'), 'aliases'],
        [has('category', 'topic', 'subject'), 'category'],
        [has('options', 'choices'), 'options'],
      ]),
    };
  }
  return undefined;
}

/** A list from an array, a JSON-encoded list (PopQA), or text separated by "|" or ";". */
export function asList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).filter((x) => x !== '');
  const s = String(v).trim();
  if (s === '') return [];
  if (s.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(s);
      if (Array.isArray(parsed)) return asList(parsed);
    } catch {
      // Python-style lists with single quotes: fall through to splitting.
      const inner = s.slice(1, -1).split(/',\s*'|",\s*"/).map((x) => x.replace(/^['"]|['"]$/g, '').trim());
      return inner.filter((x) => x !== '');
    }
  }
  return s.split(/\s*[|;]\s*/).filter((x) => x !== '');
}

/** SimpleQA's metadata is a Python-dict-like string; its topic is the category. */
export function categoryOf(v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'object') {
    const topic = (v as Record<string, unknown>).topic;
    return typeof topic === 'string' ? topic : undefined;
  }
  const s = String(v);
  const m = /['"]topic['"]\s*:\s*['"]([^'"]*)['"]/.exec(s);
  return m ? m[1] : s.startsWith('{') ? undefined : s;
}
