/**
 * The reliability diagram's consistency band and its marks of bins under 10 questions, rendered
 * in Node and measured: each box spans the stored band on the bars' accuracy scale and the bar's
 * own span; a ring sits over exactly the bins under 10 questions; both have their legend keys.
 */
import { describe, expect, test } from 'vitest';
import ReliabilityDiagram from '../../../../src/ui/charts/ReliabilityDiagram.svelte';
import { consistencyBands } from '../../../../src/core/ece-inference';
import type { ReliabilityBin } from '../../../../src/core/types';
import { consistencyMarks } from '../../../../src/ui/charts/reliability-data';
import { all, draw, num, type Node } from './svg-markup';

/** Confidences spread over the bins: bin k gets counts[k] rows at k/10 + 0.05. */
function rows(counts: number[]): { conf: number[]; bins: ReliabilityBin[] } {
  const conf = counts.flatMap((n, k) => Array.from({ length: n }, () => k / 10 + 0.05));
  const bins = counts.map((count, k) => ({ lo: k / 10, hi: (k + 1) / 10, count, accuracy: count ? Math.min(1, k / 10 + 0.15) : NaN, meanConfidence: count ? k / 10 + 0.05 : NaN }));
  return { conf, bins };
}

const text = (n: Node): string => n.text + n.children.map(text).join('');

describe('ReliabilityDiagram consistency band', () => {
  const counts = [0, 4, 12, 0, 9, 30, 40, 60, 25, 3];
  const { conf, bins } = rows(counts);
  const bands = consistencyBands(conf, { bins: 10 });
  const svg = draw(ReliabilityDiagram, { title: 'T', series: [{ key: 'sem1', label: 'Sem1', color: 'red', bins, bands }] });
  const bars = all(svg, 'rect', 'bar');
  const boxes = all(svg, 'rect', 'consistency-box');

  test('one box per non-empty bin, spanning [band low, band high] on the bars’ accuracy scale, over the bar’s span', () => {
    const drawn = bands.filter((b) => b.count > 0);
    expect(boxes.map((b) => Number(b.attrs['data-band-bin']))).toEqual(drawn.map((b) => b.bin));
    const base = num(bars[0], 'y') + num(bars[0], 'height');
    const perAccuracy = num(bars[0], 'height') / bins[1].accuracy;
    boxes.forEach((box, i) => {
      const b = drawn[i];
      expect(b.lo).toBeLessThanOrEqual(b.hi);
      // Top edge at the band's high end, bottom edge at its low end (a box of zero height gets 1.5 units).
      expect(num(box, 'y')).toBeCloseTo(base - Math.max(b.hi, b.lo + 1.5 / perAccuracy) * perAccuracy, 6);
      if (b.hi > b.lo + 1.5 / perAccuracy) expect(num(box, 'height')).toBeCloseTo((b.hi - b.lo) * perAccuracy, 6);
      const bar = bars.find((r) => r.attrs['data-bin'] === String(b.bin))!;
      expect(num(box, 'x')).toBeCloseTo(num(bar, 'x'), 9);
      expect(num(box, 'width')).toBeCloseTo(num(bar, 'width'), 9);
      // An outline only: nothing blends into the bar's colour.
      expect(box.attrs.fill).toBe('none');
    });
    // The band is that of a calibrated model at these confidences: it holds the bin's mean confidence.
    for (const b of drawn) expect(b.lo <= bins[b.bin].meanConfidence + 1e-12 && bins[b.bin].meanConfidence - 1e-12 <= b.hi).toBe(true);
  });

  test('a ring marks exactly the bins under 10 questions (not empty ones), and the legend names the band and the mark', () => {
    const marks = all(svg, 'circle', 'small-bin');
    expect(marks.map((m) => Number(m.attrs['data-bin']))).toEqual([1, 4, 9]);
    expect(marks.map((m) => Number(m.attrs['data-count']))).toEqual([4, 9, 3]);
    expect(bars.filter((b) => b.attrs['data-small-bin'] === 'true').map((b) => Number(b.attrs['data-bin']))).toEqual([1, 4, 9]);
    // Each ring centred over its bar, in one row above the plot (above every bar, even one of accuracy 1).
    const top = Math.min(...bars.map((b) => num(b, 'y')));
    for (const m of marks) {
      const bar = bars.find((r) => r.attrs['data-bin'] === m.attrs['data-bin'])!;
      expect(num(m, 'cx')).toBeCloseTo(num(bar, 'x') + num(bar, 'width') / 2, 9);
      expect(num(m, 'cy') + num(m, 'r')).toBeLessThan(top);
    }
    expect(new Set(marks.map((m) => m.attrs.cy)).size).toBe(1);
    const legend = all(svg, 'span', 'key').map(text);
    expect(legend).toContain('consistency band (calibrated model, 95%)');
    expect(legend).toContain('bin under 10 questions');
    // A bar's tip states its band.
    expect(bars[0].attrs['aria-label']).toMatch(/\(under 10: a coarse accuracy\).*consistency band/);
  });

  test('a report without bands draws none and keeps its legend without the key', () => {
    const old = draw(ReliabilityDiagram, { title: 'T', series: [{ key: 'sem1', label: 'Sem1', color: 'red', bins: rows([0, 0, 20, 20, 20, 20, 20, 20, 20, 20]).bins }] });
    expect(all(old, 'rect', 'consistency-box')).toEqual([]);
    expect(all(old, 'span', 'key').map(text)).not.toContain('consistency band (calibrated model, 95%)');
    expect(all(old, 'circle', 'small-bin')).toEqual([]);
    expect(all(old, 'span', 'key').map(text)).not.toContain('bin under 10 questions');
  });

  test('consistencyMarks skips empty bins and bands of bins the diagram lacks', () => {
    expect(consistencyMarks([{ bin: 0, count: 0, lo: NaN, hi: NaN }, { bin: 1, count: 3, lo: 0.1, hi: 0.3 }, { bin: 12, count: 3, lo: 0.1, hi: 0.3 }], bins)).toEqual([
      { index: 1, lo: 0.1, hi: 0.2, count: 3, bandLow: 0.1, bandHigh: 0.3 },
    ]);
    expect(consistencyMarks(undefined, bins)).toEqual([]);
  });
});
