/** Plain data for the ECE-by-margin-regime bars, from a model's `byRegime` metrics. */
import type { Regime } from '../../core/types';
import type { ModelMetrics, ModelReport, SignalName } from '../../model/report';
import { MIN_PER_BIN, regimeSmallBins, smallBinsText, type SmallBins } from '../../pipeline/small-bins';

export const REGIME_ORDER: Regime[] = ['jensen', 'low-margin', 'large-margin'];

export const REGIME_LABEL: Record<Regime, string> = {
  jensen: 'Jensen-dominated',
  'low-margin': 'Low margin',
  'large-margin': 'Large margin',
};


export interface RegimeBar {
  regime: Regime;
  signal: SignalName;
  ece: number;
  /** Questions in the regime. */
  count: number;
  /**
   * The regime's ECE rests on a bin under MIN_PER_BIN questions (the report's per-bin rule,
   * pipeline/small-bins.ts, its questions binned by the signal): drawn open (outline only), with the count.
   */
  tooFew: boolean;
  /** What `tooFew` rests on: "3 of 4 bins under 10 questions (13 questions)". */
  smallBins?: string;
  /**
   * The regime's ECE interval [low, high], the one method of every ECE of the report
   * (eceInference, the regime's own questions), when the report holds a finite one (reports made
   * before it was stored get it when opened; until then the bar has no whiskers).
   */
  interval?: [number, number];
}

/** The chart's caption for its whiskers: what the interval is and why it can sit below its bar. */
export const REGIME_INTERVAL_CAPTION =
  `Whiskers: 95 % interval of each regime’s population ECE, the method of every ECE in this report (the regime’s own questions). A binned ECE on few questions reads high, so the interval can lie below its bar. An open bar (its outline only) rests on a bin under ${MIN_PER_BIN} questions: its value is shown, but read it as rough.`;

/**
 * One bar per (regime, signal) with a finite ECE, with its interval when stored; regimes with no
 * question draw no bar. `small` gives the regime's small bins per signal (the model's rows, see
 * modelRegimeBars); without it no bar is marked.
 */
export function regimeBars(
  byRegime: ModelMetrics['byRegime'],
  signals: readonly SignalName[],
  small?: (regime: Regime, signal: SignalName) => SmallBins,
): RegimeBar[] {
  const bars: RegimeBar[] = [];
  for (const regime of REGIME_ORDER) {
    const cell = byRegime[regime];
    if (!cell || !(cell.count > 0)) continue;
    for (const signal of signals) {
      const ece = cell.ece[signal];
      if (ece === undefined || !Number.isFinite(ece)) continue;
      const text = small ? smallBinsText(small(regime, signal)) : null;
      const bar: RegimeBar = { regime, signal, ece, count: cell.count, tooFew: text !== null };
      if (text) bar.smallBins = text;
      const ci = cell.eceInference?.[signal]?.interval;
      if (ci && ci.every(Number.isFinite)) bar.interval = [ci[0], ci[1]];
      bars.push(bar);
    }
  }
  return bars;
}

/** A model's regime bars, each marked by the per-bin rule over the regime's own questions. */
export function modelRegimeBars(m: ModelReport, signals: readonly SignalName[]): RegimeBar[] {
  return regimeBars(m.metrics.byRegime, signals, (regime, s) => regimeSmallBins(m, regime, s, m.metrics.signals[s]?.bins.length ?? 10));
}
