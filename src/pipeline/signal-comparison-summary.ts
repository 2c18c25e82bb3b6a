/**
 * The signal comparison in words and table rows, for the report view and the CLI: which signal is
 * best calibrated on this data, by how much, and which differences the bootstrap can resolve.
 * Labels are the signals table's (model/signals.ts) unless others are passed in.
 */
import type { Interval } from '../core/types';
import type { SignalComparison } from '../model/report';
import { SIGNAL_LABEL, type SignalName } from '../model/signals';

/**
 * 'best': lowest ECE and distinguishably better than the next signal; 'lowest': lowest ECE, but
 * the next signal's paired interval includes 0, so it is not named best; 'worse' and
 * 'indistinguishable' compare a signal with the lowest one.
 */
export type Verdict = 'best' | 'lowest' | 'worse' | 'indistinguishable';

export interface ComparisonRow {
  signal: SignalName;
  ece: Interval;
  /** ECE(signal) − ECE(best) with its paired interval; null for the best signal. */
  diff: Interval | null;
  verdict: Verdict;
}

export interface ComparisonSummary {
  headline: string;
  rows: ComparisonRow[];
  /** Signals left out, with why. */
  notes: string[];
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');
const iv = (i: Interval) => `[${f3(i[1])}, ${f3(i[2])}]`;

export function summarizeComparison(cmp: SignalComparison, label: Record<SignalName, string> = SIGNAL_LABEL): ComparisonSummary {
  const notes = cmp.excluded.map((x) => `${label[x.signal]}: not compared (${x.reason}).`);
  if (!cmp.best) return { headline: 'No signal could be compared on these questions.', rows: [], notes };
  // A signal is named best only when its paired interval against the next one excludes 0.
  const named = !cmp.runnerUp || cmp.clearlyBetterThan.includes(cmp.runnerUp);
  const rows: ComparisonRow[] = cmp.compared
    .map((s): ComparisonRow => {
      const diff = s === cmp.best ? null : (cmp.intervals[s] ?? null);
      const verdict: Verdict = s === cmp.best ? (named ? 'best' : 'lowest') : cmp.clearlyBetterThan.includes(s) ? 'worse' : 'indistinguishable';
      return { signal: s, ece: cmp.ece[s]!, diff, verdict };
    })
    .sort((a, b) => a.ece[0] - b.ece[0]);
  const best = cmp.ece[cmp.best]!;
  if (!named && cmp.runnerUp && cmp.byHowMuch) {
    const d = cmp.byHowMuch;
    const headline = `No signal is distinguishably better calibrated on these ${cmp.rows} questions: ${label[cmp.best]} has the lowest ECE (${f3(best[0])} ${iv(best)}), but ${label[cmp.runnerUp]} is only ${f3(d[0])} higher ${iv(d)}, an interval that includes 0.`;
    return { headline, rows, notes };
  }
  let headline = `${label[cmp.best]} is best calibrated on these ${cmp.rows} questions (ECE ${f3(best[0])} ${iv(best)}).`;
  if (cmp.runnerUp && cmp.byHowMuch) headline += ` Next is ${label[cmp.runnerUp]}, ${f3(cmp.byHowMuch[0])} higher ${iv(cmp.byHowMuch)}.`;
  return { headline, rows, notes };
}
