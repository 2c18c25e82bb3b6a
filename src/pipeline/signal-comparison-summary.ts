/**
 * The signal comparison in words and table rows, for the report view and the CLI: which signal is
 * best calibrated on this data, by how much, and which differences the bootstrap can resolve.
 * Labels are the signals table's (model/signals.ts) unless others are passed in.
 */
import type { Interval } from '../core/types';
import type { SignalComparison } from '../model/report';
import { SIGNAL_LABEL, type SignalName } from '../model/signals';

/**
 * 'best': lowest ECE and named best (it beats every other signal; in reports saved before the
 * selection rule, the next one); 'lowest': lowest ECE, but not named; 'worse' and
 * 'indistinguishable' compare a signal with the lowest one.
 */
export type Verdict = 'best' | 'lowest' | 'worse' | 'indistinguishable';

export interface ComparisonRow {
  signal: SignalName;
  ece: Interval;
  /** ECE(signal) − ECE(best) with its paired interval; null for the best signal. */
  diff: Interval | null;
  /** One-sided p-value of H0: ECE(signal) ≤ ECE(best); absent for the best signal and in older reports. */
  p?: number;
  verdict: Verdict;
}

export interface ComparisonSummary {
  headline: string;
  /** The naming rule in one sentence, with the number of comparisons; empty for older reports. */
  rule: string;
  rows: ComparisonRow[];
  /** Signals left out, with why. */
  notes: string[];
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');

const pct = (x: number) => `${+(100 * x).toFixed(2)}%`;
const fp = (p: number) => (p < 0.001 ? '< 0.001' : p.toFixed(3));

/** The rule that names a best signal, with the number of comparisons (stored comparisons only). */
export function selectionRule(sel: NonNullable<SignalComparison['selection']>): string {
  const k = sel.comparisons;
  if (k === 0) return 'Only one signal was compared, so there is nothing to beat.';
  return `Named best only when it beats every other signal: ${k} one-sided ${k === 1 ? 'test' : 'tests'} of "ECE(other) ≤ ECE(best)", each at ${pct(sel.perComparison)}, all of which must reject (an intersection–union test, so no correction for the number of comparisons; the best is picked from the data, so at most ${pct(sel.alpha)} of the time is one of two equally calibrated signals named). Each test holds the confidences fixed and simulates the answers' correctness (${sel.draws} data sets per null hypothesis).`;
}

/**
 * `eceInterval`: the one interval the report gives each signal's ECE (formats/headline-table.ts
 * eceIntervalOf), written after the best signal's ECE in the headline; without it (a comparison
 * with no report behind it, `semece mc`) the comparison's own percentile interval is written.
 * `calibrated`: what "calibrated" is qualified by in the headline (the comparison after
 * recalibration says " after the cross-fitted isotonic map").
 */
export function summarizeComparison(
  cmp: SignalComparison,
  label: Record<SignalName, string> = SIGNAL_LABEL,
  eceInterval?: (s: SignalName) => [number, number] | null,
  calibrated = '',
): ComparisonSummary {
  const iv = (i: Interval, s?: SignalName) => {
    const one = s && eceInterval ? eceInterval(s) : undefined;
    if (one === undefined) return `[${f3(i[1])}, ${f3(i[2])}]`;
    return one ? `[${f3(one[0])}, ${f3(one[1])}]` : '';
  };
  const notes = cmp.excluded.map((x) => `${label[x.signal]}: not compared (${x.reason}).`);
  const sel = cmp.selection;
  const rule = sel ? selectionRule(sel) : '';
  if (!cmp.best) return { headline: 'No signal could be compared on these questions.', rule, rows: [], notes };
  // Stored rule: named when every test rejects. Older reports: when the runner-up's interval excludes 0.
  const named = sel ? sel.named : !cmp.runnerUp || cmp.clearlyBetterThan.includes(cmp.runnerUp);
  const rows: ComparisonRow[] = cmp.compared
    .map((s): ComparisonRow => {
      const diff = s === cmp.best ? null : (cmp.intervals[s] ?? null);
      const verdict: Verdict = s === cmp.best ? (named ? 'best' : 'lowest') : cmp.clearlyBetterThan.includes(s) ? 'worse' : 'indistinguishable';
      const p = s === cmp.best ? undefined : sel?.tests[s]?.p;
      return { signal: s, ece: cmp.ece[s]!, diff, ...(p !== undefined ? { p } : {}), verdict };
    })
    .sort((a, b) => a.ece[0] - b.ece[0]);
  const best = cmp.ece[cmp.best]!;
  if (!named && sel) {
    const open = rows.filter((r) => r.verdict === 'indistinguishable');
    const names = open.map((r) => `${label[r.signal]} (p = ${fp(r.p ?? NaN)})`).join(', ');
    const headline = `No signal is named best calibrated${calibrated} on these ${cmp.rows} questions: ${label[cmp.best]} has the lowest ECE (${f3(best[0])} ${iv(best, cmp.best)}), but it does not beat ${open.length === 1 ? 'this signal' : `these ${open.length} signals`} beyond chance: ${names}.`;
    return { headline, rule, rows, notes };
  }
  if (!named && cmp.runnerUp && cmp.byHowMuch) {
    const d = cmp.byHowMuch;
    const headline = `No signal is distinguishably better calibrated${calibrated} on these ${cmp.rows} questions: ${label[cmp.best]} has the lowest ECE (${f3(best[0])} ${iv(best, cmp.best)}), but ${label[cmp.runnerUp]} is only ${f3(d[0])} higher ${iv(d)}, an interval that includes 0.`;
    return { headline, rule, rows, notes };
  }
  let headline = `${label[cmp.best]} is best calibrated${calibrated} on these ${cmp.rows} questions (ECE ${f3(best[0])} ${iv(best, cmp.best)})`;
  headline += sel && sel.comparisons > 0 ? `: it beats each of the ${sel.comparisons} other ${sel.comparisons === 1 ? 'signal' : 'signals'} (every p < ${sel.perComparison}).` : '.';
  if (cmp.runnerUp && cmp.byHowMuch) headline += ` Next is ${label[cmp.runnerUp]}, ${f3(cmp.byHowMuch[0])} higher ${iv(cmp.byHowMuch)}.`;
  return { headline, rule, rows, notes };
}
