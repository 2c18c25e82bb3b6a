/**
 * Sorting, filtering, searching and paging of a model's per-question rows: pure functions over
 * the document's rows so 40,000 rows stay responsive (only one page is ever rendered).
 */
import type { Regime } from '../../core/types';
import type { ReportQuestion } from '../../formats/report-document';

export type SortKey = 'id' | 'question' | 'sem1' | 'sem2' | 'verbalized' | 'margin' | 'correct' | 'nClasses' | 'gap';
export type Outcome = 'all' | 'correct' | 'incorrect' | 'overridden';

export interface TableQuery {
  search: string;
  outcome: Outcome;
  regime: Regime | 'all';
  sort: SortKey;
  descending: boolean;
}

export const DEFAULT_QUERY: TableQuery = { search: '', outcome: 'all', regime: 'all', sort: 'id', descending: false };

function sortValue(q: ReportQuestion, key: SortKey): number | string {
  switch (key) {
    case 'id':
      return q.id;
    case 'question':
      return q.question;
    case 'gap':
      return q.sem1 - q.sem2;
    default:
      return q[key];
  }
}

function matchesSearch(q: ReportQuestion, needle: string): boolean {
  return (
    q.id.toLowerCase().includes(needle) ||
    q.question.toLowerCase().includes(needle) ||
    q.gold.toLowerCase().includes(needle) ||
    q.modalLabel.toLowerCase().includes(needle)
  );
}

/** The rows that pass the query, in its order; the input is not modified. */
export function queryRows(rows: readonly ReportQuestion[], query: TableQuery): ReportQuestion[] {
  const needle = query.search.trim().toLowerCase();
  const kept = rows.filter((q) => {
    if (query.outcome === 'correct' && q.correct !== 1) return false;
    if (query.outcome === 'incorrect' && q.correct !== 0) return false;
    if (query.outcome === 'overridden' && !q.overridden) return false;
    if (query.regime !== 'all' && q.regime !== query.regime) return false;
    return needle === '' || matchesSearch(q, needle);
  });
  const dir = query.descending ? -1 : 1;
  const key = query.sort;
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  // Precompute keys once: a comparator that recomputes them costs ~20 % more on 40,000 rows.
  const keyed = kept.map((q, i) => ({ q, i, v: sortValue(q, key) }));
  keyed.sort((a, b) => {
    let c: number;
    if (typeof a.v === 'string' && typeof b.v === 'string') c = collator.compare(a.v, b.v);
    else {
      const x = a.v as number;
      const y = b.v as number;
      // NaN sorts last whatever the direction, so missing values never crowd the top.
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? a.i - b.i : Number.isNaN(x) ? 1 : -1;
      c = x - y;
    }
    return c !== 0 ? c * dir : a.i - b.i;
  });
  return keyed.map((k) => k.q);
}

export interface Page<T> {
  rows: T[];
  page: number;
  pages: number;
  total: number;
  first: number;
}

/** Page `page` (0-based, clamped) of `size` rows. */
export function pageOf<T>(rows: readonly T[], page: number, size: number): Page<T> {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const p = Math.min(Math.max(0, Math.floor(page)), pages - 1);
  const first = p * size;
  return { rows: rows.slice(first, first + size), page: p, pages, total: rows.length, first };
}
