/**
 * What a reader is looking at in a report, kept in the URL so it can be sent ("look at q08"):
 * the tab, the questions table's model, filters, search and sort, and the open question. It
 * lives after a `?` at the end of the location's fragment (`#/report/abc?view=questions&open=q08`,
 * `#/shared/<payload>?…`, the offline file's `#?…`): the router matches the part before it, so a
 * link made before view state existed opens as it always did, and no part of it reaches a server.
 */
import type { Regime } from '../../core/types';
import { DEFAULT_QUERY, type Outcome, type SortKey, type TableQuery } from './question-table-data';

export type ReportTab = 'calibration' | 'difficulty' | 'questions' | 'selective' | 'slices' | 'uncertainty' | 'spent';
export const REPORT_TABS: readonly ReportTab[] = ['calibration', 'difficulty', 'questions', 'selective', 'slices', 'uncertainty', 'spent'];

export interface ReportViewState {
  view: ReportTab;
  /** The questions table's model, by name (an index would point elsewhere if models were reordered). */
  model: string | null;
  query: TableQuery;
  /** The question whose drill-down is open, by id. */
  open: string | null;
  /** The Slices view's column (null: the first one the questions keep). Optional: older callers leave it out. */
  slice?: string | null;
}

export const DEFAULT_VIEW_STATE: ReportViewState = { view: 'calibration', model: null, query: { ...DEFAULT_QUERY }, open: null };

const OUTCOMES: readonly Outcome[] = ['all', 'correct', 'incorrect', 'overridden'];
const REGIMES: readonly (Regime | 'all')[] = ['all', 'jensen', 'low-margin', 'large-margin'];

/** The query part of a fragment: what follows its first `?` ('' when none). */
export function fragmentQuery(hash: string): string {
  const at = hash.indexOf('?');
  return at < 0 ? '' : hash.slice(at + 1);
}

/**
 * The state a fragment's query names; anything missing or unknown keeps its default, so a
 * hand-edited or truncated link still opens the report.
 */
export function readViewState(hash: string): ReportViewState {
  const p = new URLSearchParams(fragmentQuery(hash));
  const pick = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const v = p.get(name);
    return v !== null && (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
  };
  const sort = p.get('sort');
  return {
    view: pick('view', REPORT_TABS, DEFAULT_VIEW_STATE.view),
    model: p.get('model') || null,
    query: {
      search: p.get('q') ?? '',
      outcome: pick('outcome', OUTCOMES, DEFAULT_QUERY.outcome),
      regime: pick('regime', REGIMES, DEFAULT_QUERY.regime),
      // Sort keys are column names; the table ignores one it does not have.
      sort: sort && /^[A-Za-z]+$/.test(sort) ? (sort as SortKey) : DEFAULT_QUERY.sort,
      descending: p.get('desc') === '1',
    },
    open: p.get('open') || null,
    // Only when named, so the state of a link without it reads as before.
    ...(p.get('slice') ? { slice: p.get('slice') } : {}),
  };
}

/** The state as a query (without `?`), naming only what differs from the defaults: '' for the report as it opens. */
export function viewStateQuery(s: ReportViewState): string {
  const p = new URLSearchParams();
  if (s.view !== DEFAULT_VIEW_STATE.view) p.set('view', s.view);
  if (s.model) p.set('model', s.model);
  if (s.query.search) p.set('q', s.query.search);
  if (s.query.outcome !== DEFAULT_QUERY.outcome) p.set('outcome', s.query.outcome);
  if (s.query.regime !== DEFAULT_QUERY.regime) p.set('regime', s.query.regime);
  if (s.query.sort !== DEFAULT_QUERY.sort) p.set('sort', s.query.sort);
  if (s.query.descending) p.set('desc', '1');
  if (s.open) p.set('open', s.open);
  if (s.slice) p.set('slice', s.slice);
  return p.toString();
}

/** The fragment with its query replaced by the state's (removed when the state is the default). */
export function withViewState(hash: string, s: ReportViewState): string {
  const at = hash.indexOf('?');
  const path = at < 0 ? hash : hash.slice(0, at);
  const query = viewStateQuery(s);
  return query ? `${path || '#'}?${query}` : path;
}
