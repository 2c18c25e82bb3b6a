/** Plain data for the ECE-by-margin-regime bars, from a model's `byRegime` metrics. */
import type { Regime } from '../../core/types';
import type { ModelMetrics, SignalName } from '../../model/report';

export const REGIME_ORDER: Regime[] = ['jensen', 'low-margin', 'large-margin'];

export const REGIME_LABEL: Record<Regime, string> = {
  jensen: 'Jensen-dominated',
  'low-margin': 'Low margin',
  'large-margin': 'Large margin',
};

/**
 * A regime's 10-bin ECE over fewer questions than this is mostly noise: its bars are drawn
 * greyed, with the count, and not read as a result (the paper's bootstrap uses the same floor
 * for its low-margin interval).
 */
export const MIN_REGIME_QUESTIONS = 30;

export interface RegimeBar {
  regime: Regime;
  signal: SignalName;
  ece: number;
  /** Questions in the regime. */
  count: number;
  /** Fewer than MIN_REGIME_QUESTIONS: drawn greyed. */
  tooFew: boolean;
  /**
   * The bias-corrected ECE with its 95 % basic bootstrap interval over resamples of the regime's
   * questions ([estimate, low, high]), when the report holds a finite one (reports made before
   * it was stored have none: the bar is drawn without whiskers).
   */
  interval?: [number, number, number];
}

/** The chart's caption for its whiskers: what the interval is and why it can sit below its bar. */
export const REGIME_INTERVAL_CAPTION =
  'Whiskers: 95 % bootstrap interval of each regime’s ECE with its upward bias removed (bias-corrected estimate, basic interval; the regime’s own questions resampled). A binned ECE on few questions reads high, so the interval can lie below its bar.';

/** One bar per (regime, signal) with a finite ECE, with its interval when stored; regimes with no question draw no bar. */
export function regimeBars(byRegime: ModelMetrics['byRegime'], signals: readonly SignalName[]): RegimeBar[] {
  const bars: RegimeBar[] = [];
  for (const regime of REGIME_ORDER) {
    const cell = byRegime[regime];
    if (!cell || !(cell.count > 0)) continue;
    for (const signal of signals) {
      const ece = cell.ece[signal];
      if (ece === undefined || !Number.isFinite(ece)) continue;
      const bar: RegimeBar = { regime, signal, ece, count: cell.count, tooFew: cell.count < MIN_REGIME_QUESTIONS };
      const ci = cell.eceBiasCorrected?.[signal];
      if (ci && ci.every(Number.isFinite)) bar.interval = [ci[0], ci[1], ci[2]];
      bars.push(bar);
    }
  }
  return bars;
}
