/**
 * Sorting, filtering, searching and paging of a model's per-question rows: pure functions over
 * the document's rows so 40,000 rows stay responsive (only one page is ever rendered).
 */
import type { Regime } from '../../core/types';
import type { ReportQuestion, SignalName } from '../../model/report';
import { isPaperSignal, SIGNAL_ORDER, signalValue } from '../../model/signals';

export type SortKey = 'order' | 'id' | 'question' | 'modal' | 'gold' | SignalName | 'margin' | 'correct' | 'nClasses' | 'gap';

/**
 * The signal columns of a model's table: the paper's three always (fixed fields of every row),
 * then each other signal the model scored or that some row carries (a signal present on only
 * some questions is shown but not scored).
 */
export function signalColumnsOf(model: { metrics: { signals: Partial<Record<SignalName, unknown>> }; questions: readonly ReportQuestion[] }): SignalName[] {
  return SIGNAL_ORDER.filter(
    (s) =>
      isPaperSignal(s) || model.metrics.signals[s] !== undefined ||
      model.questions.some((q) => Number.isFinite(q.signals?.[s])),
  );
}
export type Outcome = 'all' | 'correct' | 'incorrect' | 'overridden';

export interface TableQuery {
  search: string;
  outcome: Outcome;
  regime: Regime | 'all';
  sort: SortKey;
  descending: boolean;
}

/** Document order by default: no sort at all, so opening the table on 40,000 rows costs only the filter. */
export const DEFAULT_QUERY: TableQuery = { search: '', outcome: 'all', regime: 'all', sort: 'order', descending: false };

const ZEROS = '0000000000000000';

/**
 * A key that sorts "naturally" under plain string comparison: case folded, each run of ASCII
 * digits without its leading zeros (one kept) padded to 16 digits, so q2 < q10. Intl.Collator
 * with numeric collation does the same but takes ~300 ms on 40,000 ids; a regex replace with a
 * callback per digit run took ~35 ms; this scan takes ~5 ms (the first sort by id of a 40,000-
 * question table runs in one task on the page).
 */
export function naturalKey(s: string): string {
  const lower = s.toLowerCase();
  const n = lower.length;
  let out = '';
  let from = 0;
  let i = 0;
  while (i < n) {
    const c = lower.charCodeAt(i);
    if (c < 48 || c > 57) {
      i++;
      continue;
    }
    let end = i;
    while (end < n && lower.charCodeAt(end) >= 48 && lower.charCodeAt(end) <= 57) end++;
    let digits = i;
    while (digits < end - 1 && lower.charCodeAt(digits) === 48) digits++;
    out += lower.slice(from, i) + ZEROS.slice(0, Math.max(0, 16 - (end - digits))) + lower.slice(digits, end);
    from = i = end;
  }
  return from === 0 ? lower : out + lower.slice(from);
}

// Natural keys per row object, so sorting 40,000 rows by text again costs only the sort.
const idKeys = new WeakMap<ReportQuestion, string>();
const questionKeys = new WeakMap<ReportQuestion, string>();
const modalKeys = new WeakMap<ReportQuestion, string>();
const goldKeys = new WeakMap<ReportQuestion, string>();

function cachedKey(cache: WeakMap<ReportQuestion, string>, q: ReportQuestion, text: string): string {
  let k = cache.get(q);
  if (k === undefined) cache.set(q, (k = naturalKey(text)));
  return k;
}

function sortValue(q: ReportQuestion, key: Exclude<SortKey, 'order'>): number | string {
  switch (key) {
    case 'id':
      return cachedKey(idKeys, q, q.id);
    case 'question':
      return cachedKey(questionKeys, q, q.question);
    case 'modal':
      return cachedKey(modalKeys, q, q.modalLabel);
    case 'gold':
      return cachedKey(goldKeys, q, q.gold);
    case 'gap':
      return q.sem1 - q.sem2;
    case 'margin':
    case 'correct':
    case 'nClasses':
      return q[key];
    default:
      // Every signal: the paper's three are fields, the others in q.signals (signalValue reads both).
      return signalValue(q, key);
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
  // Read once: the UI's query is reactive state, where each field read in the loop would be a
  // tracked read (about 70 ms over 40,000 rows).
  const { search, outcome, regime, descending, sort: key } = query;
  const needle = search.trim().toLowerCase();
  const kept = rows.filter((q) => {
    if (outcome === 'correct' && q.correct !== 1) return false;
    if (outcome === 'incorrect' && q.correct !== 0) return false;
    if (outcome === 'overridden' && !q.overridden) return false;
    if (regime !== 'all' && q.regime !== regime) return false;
    return needle === '' || matchesSearch(q, needle);
  });
  const dir = descending ? -1 : 1;
  if (key === 'order') return descending ? kept.reverse() : kept;
  // Sort an index array over precomputed keys: ~4× faster than sorting row objects on 40,000 rows.
  const n = kept.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const first = n > 0 ? sortValue(kept[0], key) : 0;
  if (typeof first === 'string') {
    const keys = kept.map((q) => sortValue(q, key) as string);
    order.sort((a, b) => (keys[a] < keys[b] ? -dir : keys[a] > keys[b] ? dir : a - b));
  } else {
    const keys = Float64Array.from(kept, (q) => sortValue(q, key) as number);
    order.sort((a, b) => {
      const x = keys[a];
      const y = keys[b];
      // NaN sorts last whatever the direction, so missing values never crowd the top.
      if (x !== x || y !== y) return x !== x && y !== y ? a - b : x !== x ? 1 : -1;
      return x !== y ? (x - y) * dir : a - b;
    });
  }
  return Array.from(order, (i) => kept[i]);
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
