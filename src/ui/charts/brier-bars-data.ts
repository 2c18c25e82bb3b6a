/**
 * Bars of the stated-probability Brier chart: one per run and one for the mean over runs (with its
 * sample SD as a whisker). Undefined values (NaN: a run with no questions, SD of one run) draw no
 * bar or whisker rather than a zero that would read as a perfect score.
 */
import type { RunSpread } from '../../model/report';

export interface BrierBar {
  key: string;
  label: string;
  value: number;
  /** Sample SD across runs, on the mean bar only. */
  sd?: number;
  mean: boolean;
}

export function brierBars(brier: RunSpread): BrierBar[] {
  return [
    ...brier.perRun.map((value, i) => ({ key: `run-${i + 1}`, label: `Run ${i + 1}`, value, mean: false })),
    { key: 'mean', label: 'Mean', value: brier.mean, sd: brier.sd, mean: true },
  ];
}

/** Top of the y axis: room for every bar, whisker and the baseline line. */
export function brierDomainMax(bars: readonly BrierBar[], baseline: number): number {
  let top = Number.isFinite(baseline) ? baseline : 0;
  for (const b of bars) {
    if (!Number.isFinite(b.value)) continue;
    top = Math.max(top, b.value + (b.sd !== undefined && Number.isFinite(b.sd) ? b.sd : 0));
  }
  return Math.min(1, Math.max(0.05, top * 1.1));
}
