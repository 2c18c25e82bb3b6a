/**
 * The one small-sample rule of the report and the CLI, per bin (not per average): a confidence
 * bin holding fewer than MIN_PER_BIN questions gives its accuracy as a coarse fraction, so its
 * gap to the confidence is mostly noise, and noise only widens gaps (the ECE reads high there).
 * Such bins are marked on the reliability diagram, beside the ECE in the headline table, on a
 * margin regime's bar (its questions binned the same way) and in `semece score`'s stderr notes.
 */
import { equalWidthBinIndex, equalWidthEdges } from '../core/binning';
import type { ModelReport, SignalName } from '../model/report';
import { SIGNAL_SHORT, signalValue } from '../model/signals';

export const MIN_PER_BIN = 10;

export interface SmallBins {
  /** Bins holding at least one question. */
  nonEmpty: number;
  /** Indices of the non-empty bins under MIN_PER_BIN questions, in bin order. */
  small: number[];
  /** Questions in those bins. */
  questions: number;
}

/** Whether a bin of `count` questions is marked small (an empty bin is not: nothing is read there). */
export const isSmallBin = (count: number) => count > 0 && count < MIN_PER_BIN;

/** The small bins among these per-bin counts. */
export function smallBinsOf(counts: readonly number[]): SmallBins {
  const small: number[] = [];
  let nonEmpty = 0;
  let questions = 0;
  counts.forEach((c, i) => {
    if (c > 0) nonEmpty++;
    if (isSmallBin(c)) {
      small.push(i);
      questions += c;
    }
  });
  return { nonEmpty, small, questions };
}

/** Questions per equal-width bin, binned exactly as the paper's ECE bins them (core/binning.ts). */
export function equalWidthCounts(conf: ArrayLike<number>, bins: number): number[] {
  const counts = new Array<number>(Math.max(1, Math.floor(bins))).fill(0);
  for (const k of equalWidthBinIndex(conf, equalWidthEdges(bins))) counts[k]++;
  return counts;
}

/** "3 of 8 bins under 10 questions (12 questions)", or null when no bin is small. */
export function smallBinsText(s: SmallBins): string | null {
  if (s.small.length === 0) return null;
  return `${s.small.length} of ${s.nonEmpty} bin${s.nonEmpty === 1 ? '' : 's'} under ${MIN_PER_BIN} questions (${s.questions} question${s.questions === 1 ? '' : 's'})`;
}

/** The small bins of a model's signal over all its scored questions (from the stored bins). */
export function signalSmallBins(m: ModelReport, s: SignalName): SmallBins | null {
  const bins = m.metrics.signals[s]?.bins;
  return bins ? smallBinsOf(bins.map((b) => b.count)) : null;
}

/** The small bins of a signal's ECE inside one margin regime: the regime's questions binned by that signal. */
export function regimeSmallBins(m: ModelReport, regime: string, s: SignalName, bins: number): SmallBins {
  const conf: number[] = [];
  for (const q of m.questions) if (q.regime === regime) conf.push(signalValue(q, s));
  return smallBinsOf(equalWidthCounts(conf, bins));
}

/**
 * The caveats `semece score` writes to stderr and the report states once: one line per model,
 * signal and (when `regimes`) margin regime whose ECE rests on a bin under MIN_PER_BIN questions.
 */
export function smallBinCaveats(models: readonly ModelReport[], signals: readonly SignalName[], { bins, regimes = false }: { bins: number; regimes?: boolean }): string[] {
  const lines: string[] = [];
  for (const m of models) {
    const who = models.length > 1 ? `${m.model}, ` : '';
    for (const s of signals) {
      const whole = signalSmallBins(m, s);
      const text = whole && smallBinsText(whole);
      if (text) lines.push(`${who}${SIGNAL_SHORT[s]} ECE: ${text}`);
      if (!regimes) continue;
      for (const regime of Object.keys(m.metrics.byRegime)) {
        if (!(m.metrics.byRegime[regime as keyof ModelReport['metrics']['byRegime']].count > 0)) continue;
        const r = smallBinsText(regimeSmallBins(m, regime, s, bins));
        if (r) lines.push(`${who}${SIGNAL_SHORT[s]} ECE in the ${regime} regime: ${r}`);
      }
    }
  }
  return lines;
}
