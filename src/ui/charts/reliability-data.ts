/**
 * Plain data for a reliability diagram, from the bins of a report document.
 *
 * The interval band is the Wilson score interval (core/wilson) of each bin's accuracy (95 %,
 * z = 1.96): the bin's correct count out of its size, treated as binomial. It says how far the bar could
 * move by chance alone at that bin size, which is what a reader needs to judge a gap; it is
 * computed from the document's bins alone, so a saved report draws the same band.
 */
import type { ReliabilityBin } from '../../core/types';
import { wilsonInterval } from '../../core/wilson';
import type { ConsistencyBandEntry } from '../../model/report';
import { isSmallBin, MIN_PER_BIN } from '../../pipeline/small-bins';

export interface ReliabilityMark {
  /** Index of the bin in the document's bin list. */
  index: number;
  lo: number;
  hi: number;
  count: number;
  meanConfidence: number;
  accuracy: number;
  /** meanConfidence − accuracy: positive means overconfident. */
  gap: number;
  /** Wilson 95 % interval of the accuracy. */
  bandLow: number;
  bandHigh: number;
}

export interface HistogramBar {
  index: number;
  lo: number;
  hi: number;
  count: number;
}

/** One mark per non-empty bin, in bin order. */
export function reliabilityMarks(bins: readonly ReliabilityBin[]): ReliabilityMark[] {
  const marks: ReliabilityMark[] = [];
  bins.forEach((bin, index) => {
    if (!(bin.count > 0) || !Number.isFinite(bin.accuracy) || !Number.isFinite(bin.meanConfidence)) return;
    // accuracy is a mean of 0/1 values, so accuracy·count is the correct count up to rounding.
    const [bandLow, bandHigh] = wilsonInterval(Math.round(bin.accuracy * bin.count), bin.count);
    marks.push({
      index,
      lo: bin.lo,
      hi: bin.hi,
      count: bin.count,
      meanConfidence: bin.meanConfidence,
      accuracy: bin.accuracy,
      gap: bin.meanConfidence - bin.accuracy,
      bandLow,
      bandHigh,
    });
  });
  return marks;
}

/** One bar per bin, empty bins included, so the histogram shows where no answer fell. */
export function histogramBars(bins: readonly ReliabilityBin[]): HistogramBar[] {
  return bins.map((bin, index) => ({ index, lo: bin.lo, hi: bin.hi, count: bin.count }));
}

/**
 * Where a series' bar sits inside its bin when several series share the diagram: the bin's
 * [lo, hi] split into equal slots with a small padding, slot `slot` of `slots`.
 */
export function slotExtent(lo: number, hi: number, slot: number, slots: number, padding = 0.1): [number, number] {
  const width = hi - lo;
  const inner = width * (1 - padding);
  const start = lo + (width * padding) / 2;
  const step = inner / Math.max(1, slots);
  return [start + slot * step, start + (slot + 1) * step];
}

/** A short text for a mark's tooltip and aria-label (with its bin's consistency band when drawn). */
export function describeMark(mark: ReliabilityMark, seriesLabel: string, band?: ConsistencyMark): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    `${seriesLabel}, bin ${mark.lo.toFixed(2)}–${mark.hi.toFixed(2)}: ${mark.count} question${mark.count === 1 ? '' : 's'}` +
    `${isSmallBin(mark.count) ? ` (under ${MIN_PER_BIN}: a coarse accuracy)` : ''}, ` +
    `accuracy ${pct(mark.accuracy)} (95% Wilson ${pct(mark.bandLow)}–${pct(mark.bandHigh)}), ` +
    `mean confidence ${pct(mark.meanConfidence)}, gap ${mark.gap >= 0 ? '+' : ''}${(mark.gap * 100).toFixed(1)} points` +
    (band ? `; a perfectly calibrated model's accuracy here: ${pct(band.bandLow)}–${pct(band.bandHigh)} (consistency band)` : '')
  );
}

/** One bin's consistency band as drawn: the bin's confidence span, and the band's accuracy range. */
export interface ConsistencyMark {
  index: number;
  lo: number;
  hi: number;
  count: number;
  bandLow: number;
  bandHigh: number;
}

/**
 * The stored consistency bands (core/ece-inference.ts consistencyBands: the central 95% of a
 * perfectly calibrated model's bin accuracy at these confidences) placed on their bins; empty
 * bins (NaN) and bands of bins the diagram does not have draw nothing.
 */
export function consistencyMarks(bands: readonly ConsistencyBandEntry[] | undefined, bins: readonly ReliabilityBin[]): ConsistencyMark[] {
  if (!bands) return [];
  return bands.flatMap((b) => {
    const bin = bins[b.bin];
    if (!bin || !(b.count > 0) || !Number.isFinite(b.lo) || !Number.isFinite(b.hi)) return [];
    return [{ index: b.bin, lo: bin.lo, hi: bin.hi, count: b.count, bandLow: b.lo, bandHigh: b.hi }];
  });
}

/** The bins under MIN_PER_BIN questions (not empty), marked on the diagram. */
export function smallBinBars(bins: readonly ReliabilityBin[]): HistogramBar[] {
  return histogramBars(bins).filter((b) => isSmallBin(b.count));
}

/** A short text for a histogram bar's tooltip and aria-label. */
export function describeHistogramBar(bar: HistogramBar, seriesLabel: string): string {
  return `${seriesLabel}, bin ${bar.lo.toFixed(2)}–${bar.hi.toFixed(2)}: ${bar.count} question${bar.count === 1 ? '' : 's'}`;
}
