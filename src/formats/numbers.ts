/**
 * Numbers as the report shows them, the one place their rounding is decided: the views and the
 * tables a report downloads (headline CSV, Markdown, LaTeX) print the same strings. An undefined
 * statistic (NaN) shows as an em dash.
 */
import type { Interval } from '../core/types';

export function fmt(x: number | undefined | null, digits = 3): string {
  return x === undefined || x === null || !Number.isFinite(x) ? '—' : x.toFixed(digits);
}

export function pct(x: number | undefined | null, digits = 1): string {
  return x === undefined || x === null || !Number.isFinite(x) ? '—' : `${(x * 100).toFixed(digits)}%`;
}

/** "0.123 [0.101, 0.140]"; the bracket is dropped when the interval is undefined. */
export function fmtInterval(point: number | undefined, interval: Interval | undefined, digits = 3): string {
  const p = fmt(point, digits);
  if (!interval || !Number.isFinite(interval[1]) || !Number.isFinite(interval[2])) return p;
  return `${p} [${fmt(interval[1], digits)}, ${fmt(interval[2], digits)}]`;
}
