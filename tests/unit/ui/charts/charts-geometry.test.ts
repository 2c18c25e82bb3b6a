/**
 * The report's charts rendered in Node (svelte/server): what each draws is measured from its
 * markup and compared with the data, so a bar's height, a dot's position and a whisker's span
 * are checked against the numbers they stand for, not only the data-* attributes beside them.
 */
import { describe, expect, test } from 'vitest';
import BrierBars from '../../../../src/ui/charts/BrierBars.svelte';
import GapScatter from '../../../../src/ui/charts/GapScatter.svelte';
import RegimeBars from '../../../../src/ui/charts/RegimeBars.svelte';
import ReliabilityDiagram from '../../../../src/ui/charts/ReliabilityDiagram.svelte';
import type { RegimeBar } from '../../../../src/ui/charts/regime-data';
import type { ReliabilityBin } from '../../../../src/core/types';
import { wilsonInterval } from '../../../../src/core/wilson';
import { all, draw, num, type Node } from './svg-markup';

const bottomOf = (r: Node) => num(r, 'y') + num(r, 'height');
const centreOf = (r: Node) => num(r, 'x') + num(r, 'width') / 2;
/** Every value divided by the first: two lists are proportional when these agree. */
const ratios = (xs: number[]) => xs.map((v) => v / xs[0]);
const close = (xs: number[], digits = 9) => xs.map((v) => expect.closeTo(v, digits));

function bins(rows: [count: number, correct: number, meanConfidence: number][]): ReliabilityBin[] {
  return rows.map(([count, correct, meanConfidence], i) => ({
    lo: i / rows.length,
    hi: (i + 1) / rows.length,
    count,
    accuracy: count ? correct / count : NaN,
    meanConfidence: count ? meanConfidence : NaN,
  }));
}

describe('ReliabilityDiagram', () => {
  const sem1 = bins([[0, 0, 0], [4, 1, 0.15], [10, 3, 0.25], [0, 0, 0], [8, 4, 0.45], [20, 11, 0.55], [12, 9, 0.65], [30, 24, 0.75], [40, 36, 0.85], [16, 16, 0.95]]);
  const sem2 = bins([[2, 0, 0.05], [4, 2, 0.15], [10, 5, 0.25], [6, 3, 0.35], [8, 3, 0.45], [20, 12, 0.55], [12, 8, 0.65], [30, 20, 0.75], [40, 30, 0.85], [16, 12, 0.95]]);
  const one = draw(ReliabilityDiagram, { title: 'T', series: [{ key: 'sem1', label: 'Sem1', color: 'red', bins: sem1 }] });
  const drawnBins = sem1.filter((b) => b.count > 0);

  test('bar height ∝ accuracy, every bar on the same base', () => {
    const bars = all(one, 'rect', 'bar');
    expect(bars.map((b) => Number(b.attrs['data-bin']))).toEqual(sem1.flatMap((b, i) => (b.count > 0 ? [i] : [])));
    expect(ratios(bars.map((b) => num(b, 'height')))).toEqual(close(ratios(drawnBins.map((b) => b.accuracy))));
    expect(new Set(bars.map((b) => bottomOf(b).toFixed(9))).size).toBe(1);
  });

  test('bars sit in their bins: equal widths, left edges ∝ the bins’ lower edges', () => {
    const bars = all(one, 'rect', 'bar');
    const widths = bars.map((b) => num(b, 'width'));
    expect(widths).toEqual(close(widths.map(() => widths[0])));
    const x0 = num(bars[0], 'x');
    const perUnit = (num(bars[1], 'x') - x0) / (drawnBins[1].lo - drawnBins[0].lo);
    bars.forEach((b, i) => expect(num(b, 'x') - x0).toBeCloseTo((drawnBins[i].lo - drawnBins[0].lo) * perUnit, 9));
    // A bin's bar fills 90 % of its width (the slot padding).
    expect(widths[0]).toBeCloseTo(0.9 * 0.1 * perUnit, 9);
  });

  test('gap height ∝ |accuracy − mean confidence| and whisker span ∝ the Wilson interval, on the bars’ scale', () => {
    const bars = all(one, 'rect', 'bar');
    const perAccuracy = num(bars[0], 'height') / drawnBins[0].accuracy;
    const gaps = all(one, 'rect', 'gap');
    gaps.forEach((g, i) => expect(num(g, 'height')).toBeCloseTo(Math.abs(drawnBins[i].accuracy - drawnBins[i].meanConfidence) * perAccuracy, 9));
    const stems = all(one, 'g', 'band').map((g) => all(g, 'line')[0]);
    expect(stems).toHaveLength(drawnBins.length);
    stems.forEach((s, i) => {
      const [lo, hi] = wilsonInterval(Math.round(drawnBins[i].accuracy * drawnBins[i].count), drawnBins[i].count);
      expect(num(s, 'y1') - num(s, 'y2')).toBeCloseTo((hi - lo) * perAccuracy, 9);
      expect(num(s, 'x1')).toBeCloseTo(centreOf(bars[i]), 9);
    });
  });

  test('histogram bar height ∝ the bin’s count, empty bins included', () => {
    const hist = all(one, 'rect', 'hist-bar');
    expect(hist.map((h) => Number(h.attrs['data-count']))).toEqual(sem1.map((b) => b.count));
    const tallest = Math.max(...sem1.map((b) => b.count));
    const perCount = num(hist[sem1.findIndex((b) => b.count === tallest)], 'height') / tallest;
    hist.forEach((h, i) => expect(num(h, 'height')).toBeCloseTo(sem1[i].count * perCount, 9));
    expect(new Set(hist.map((h) => bottomOf(h).toFixed(9))).size).toBe(1);
  });

  test('two series share each bin side by side, the first on the left', () => {
    const two = draw(ReliabilityDiagram, {
      title: 'T',
      series: [
        { key: 'sem1', label: 'Sem1', color: 'red', bins: sem1 },
        { key: 'sem2', label: 'Sem2', color: 'blue', bins: sem2 },
      ],
    });
    const [g1, g2] = all(two, 'g', 'series');
    const byBin = (g: Node) => new Map(all(g, 'rect', 'bar').map((r) => [r.attrs['data-bin'], r]));
    const a = byBin(g1);
    const b = byBin(g2);
    for (const [bin, left] of a) {
      const right = b.get(bin)!;
      expect(num(left, 'x') + num(left, 'width')).toBeCloseTo(num(right, 'x'), 9);
      expect(num(left, 'width')).toBeCloseTo(num(right, 'width'), 9);
    }
    // Both series' bars on one accuracy scale.
    const s1 = sem1[5];
    const s2 = sem2[5];
    expect(num(a.get('5')!, 'height') / num(b.get('5')!, 'height')).toBeCloseTo(s1.accuracy / s2.accuracy, 9);
  });
});

describe('GapScatter', () => {
  const points = [
    { id: 'a', margin: 0.1, gap: 0.2, correct: 1 as const },
    { id: 'b', margin: 0.4, gap: 0.05, correct: 0 as const },
    { id: 'c', margin: 0.9, gap: -0.02, correct: 1 as const },
  ];
  const svg = draw(GapScatter, { title: 'G', data: { kind: 'points', points }, boundaries: { jensen: 0.08, large: 0.3 } });

  test('dot x ∝ margin on [0, 1]; dot y falls linearly with the gap', () => {
    const dots = all(svg, 'circle', 'dot');
    expect(dots.map((d) => d.attrs['data-id'])).toEqual(['a', 'b', 'c']);
    const cx = dots.map((d) => num(d, 'cx'));
    const cy = dots.map((d) => num(d, 'cy'));
    const x0 = cx[0] - (cx[1] - cx[0]) * (0.1 / 0.3);
    points.forEach((p, i) => expect(cx[i] - x0).toBeCloseTo(p.margin * ((cx[1] - cx[0]) / 0.3), 9));
    const slope = (cy[1] - cy[0]) / (points[1].gap - points[0].gap);
    expect(slope).toBeLessThan(0);
    expect((cy[2] - cy[0]) / (points[2].gap - points[0].gap)).toBeCloseTo(slope, 9);
    // An answer graded incorrect is a ring in the dots' colour at full strength (visible on a dark page), not a faint dot.
    expect(dots.map((d) => d.attrs.fill)).toEqual(['var(--series-sem1)', 'none', 'var(--series-sem1)']);
    expect(dots.map((d) => d.attrs.stroke)).toEqual(['var(--bg)', 'var(--series-sem1)', 'var(--bg)']);
    expect(num(dots[1], 'stroke-width')).toBeGreaterThanOrEqual(1.5);
  });

  test('the boundaries’ labels sit above the plotting area, clear of every dot', () => {
    const spine = all(all(svg, 'g', 'y-axis')[0], 'line')[0];
    const plotTop = Math.min(num(spine, 'y1'), num(spine, 'y2'));
    const labels = all(svg, 'text', 'boundary-label');
    expect(labels.map((t) => t.text)).toEqual(['Jensen', 'large margin →']);
    for (const t of labels) expect(num(t, 'y')).toBeLessThan(plotTop);
    // Two rows, so labels of close boundaries do not run into each other.
    expect(num(labels[1], 'y') - num(labels[0], 'y')).toBeGreaterThanOrEqual(12);
    // A dot at the top of the scale still clears the lower label's descenders.
    const lowest = Math.max(...labels.map((t) => num(t, 'y')));
    for (const d of all(svg, 'circle', 'dot')) expect(num(d, 'cy') - num(d, 'r')).toBeGreaterThan(lowest + 4);
  });

  test('the zero line and the regime boundaries sit where the scales put 0 and their margins', () => {
    const dots = all(svg, 'circle', 'dot');
    const [a, b] = [num(dots[0], 'cx'), num(dots[1], 'cx')];
    const xAt = (m: number) => a + ((m - 0.1) / 0.3) * (b - a);
    const boundaries = all(svg, 'line', 'boundary').map((l) => num(l, 'x1'));
    expect(boundaries).toEqual(close([xAt(0.08), xAt(0.3)]));
    const [ya, yb] = [num(dots[0], 'cy'), num(dots[1], 'cy')];
    const zero = all(all(svg, 'g', 'zero')[0], 'line')[0];
    expect(num(zero, 'y1')).toBeCloseTo(ya + ((0 - 0.2) / (0.05 - 0.2)) * (yb - ya), 9);
  });

  test('summarised margins: the range line spans the 10th–90th percentile on the dots’ scale', () => {
    const groups = [
      { margin: 0.2, meanGap: 0.1, low: 0.02, high: 0.3, count: 40 },
      { margin: 0.6, meanGap: 0.01, low: -0.01, high: 0.04, count: 900 },
    ];
    const summary = draw(GapScatter, { title: 'G', data: { kind: 'groups', groups, total: 940 } });
    const dots = all(summary, 'circle', 'dot');
    const perGap = (num(dots[1], 'cy') - num(dots[0], 'cy')) / (groups[1].meanGap - groups[0].meanGap);
    const ranges = all(summary, 'g', 'range').map((g) => all(g, 'line')[0]);
    ranges.forEach((r, i) => {
      expect(num(r, 'y2') - num(r, 'y1')).toBeCloseTo((groups[i].high - groups[i].low) * perGap, 9);
      expect(num(r, 'x1')).toBe(num(dots[i], 'cx'));
    });
    // A group of more questions draws a larger dot.
    expect(num(dots[1], 'r')).toBeGreaterThan(num(dots[0], 'r'));
  });
});

describe('RegimeBars', () => {
  test('bar height ∝ ECE on one base; a regime’s bars stay inside its group, in signal order', () => {
    const bars: RegimeBar[] = [
      { regime: 'jensen', signal: 'sem1', ece: 0.3, count: 5, tooFew: true, smallBins: '2 of 2 bins under 10 questions (5 questions)' },
      { regime: 'jensen', signal: 'sem2', ece: 0.1, count: 5, tooFew: true, smallBins: '1 of 1 bin under 10 questions (5 questions)' },
      { regime: 'large-margin', signal: 'sem1', ece: 0.05, count: 50, tooFew: false },
      { regime: 'large-margin', signal: 'sem2', ece: 0.2, count: 50, tooFew: false },
    ];
    const svg = draw(RegimeBars, { title: 'R', bars, signals: ['sem1', 'sem2'] });
    const rects = all(svg, 'rect', 'bar');
    expect(rects.map((r) => `${r.attrs['data-regime']}:${r.attrs['data-signal']}`)).toEqual(bars.map((b) => `${b.regime}:${b.signal}`));
    expect(ratios(rects.map((r) => num(r, 'height')))).toEqual(close(ratios(bars.map((b) => b.ece))));
    expect(new Set(rects.map((r) => bottomOf(r).toFixed(9))).size).toBe(1);
    expect(num(rects[0], 'x') + num(rects[0], 'width')).toBeLessThan(num(rects[1], 'x'));
    // The gap between groups is wider than the gap between a group's bars.
    const within = num(rects[1], 'x') - (num(rects[0], 'x') + num(rects[0], 'width'));
    const between = num(rects[2], 'x') - (num(rects[1], 'x') + num(rects[1], 'width'));
    expect(between).toBeGreaterThan(within);
    const ticks = all(all(svg, 'g', 'x-axis')[0], 'g', 'tick');
    expect(ticks.map((t) => all(t, 'text').map((x) => x.text))).toEqual([['Jensen-dominated', 'n = 5 (bins <10)'], ['Large margin', 'n = 50']]);
    // A bar whose ECE rests on bins under 10 questions is drawn open: its outline in its signal's colour, no fill.
    expect(rects.map((r) => r.attrs['data-too-few'])).toEqual(['true', 'true', undefined, undefined]);
    expect(rects.map((r) => r.attrs['fill-opacity'])).toEqual(['0', '0', '1', '1']);
    expect(rects[0].attrs.stroke).toBe(rects[2].attrs.fill);
    expect(rects[2].attrs.stroke).toBe('none');
    // Each bar is topped by its signal's marker shape, centred on it, so signals read apart without colour.
    const markers = all(svg, 'path', 'marker');
    expect(markers.map((m) => m.attrs['data-shape'])).toEqual(['circle', 'square', 'circle', 'square']);
    markers.forEach((m, i) => {
      const [, tx, ty] = /translate\(([-\d.]+),([-\d.]+)\)/.exec(m.attrs.transform)!.map(Number);
      expect(tx).toBeCloseTo(centreOf(rects[i]), 9);
      expect(ty).toBeLessThan(num(rects[i], 'y'));
    });
  });
});

test('RegimeBars: a signal’s marker sits above its bar’s whisker, so the two never cross', () => {
  const bars: RegimeBar[] = [
    { regime: 'large-margin', signal: 'sem1', ece: 0.1, count: 50, tooFew: false, interval: [0.02, 0.3] },
    { regime: 'large-margin', signal: 'sem2', ece: 0.2, count: 50, tooFew: false },
  ];
  const svg = draw(RegimeBars, { title: 'R', bars, signals: ['sem1', 'sem2'] });
  const [withCi, without] = all(svg, 'path', 'marker').map((m) => Number(/translate\([-\d.]+,([-\d.]+)\)/.exec(m.attrs.transform)![1]));
  const stem = all(all(svg, 'g', 'ci')[0], 'line')[0];
  const whiskerTop = Math.min(num(stem, 'y1'), num(stem, 'y2'));
  expect(withCi).toBeLessThan(whiskerTop);
  expect(without).toBeLessThan(num(all(svg, 'rect', 'bar')[1], 'y'));
});

describe('BrierBars', () => {
  const brier = { perRun: [0.2, 0.3, 0.1], mean: 0.2, sd: 0.1 };
  const svg = draw(BrierBars, { title: 'B', brier, baseline: 0.25 });
  const bars = all(svg, 'rect', 'bar');

  test('bar height ∝ Brier score, the mean last', () => {
    expect(bars.map((b) => b.attrs['data-bar'])).toEqual(['run-1', 'run-2', 'run-3', 'mean']);
    expect(ratios(bars.map((b) => num(b, 'height')))).toEqual(close(ratios([...brier.perRun, brier.mean])));
  });

  test('the whisker spans mean ± SD and the baseline sits at its value, on the bars’ scale', () => {
    const mean = bars[3];
    const perUnit = num(mean, 'height') / brier.mean;
    const base = bottomOf(mean);
    const stem = all(all(svg, 'g', 'whisker')[0], 'line')[0];
    expect(num(stem, 'y1') - num(stem, 'y2')).toBeCloseTo(2 * brier.sd * perUnit, 9);
    expect(num(stem, 'x1')).toBeCloseTo(centreOf(mean), 9);
    const baseline = all(all(svg, 'g', 'baseline')[0], 'line')[0];
    expect(base - num(baseline, 'y1')).toBeCloseTo(0.25 * perUnit, 9);
  });

  test('an undefined Brier draws no bar and an undefined SD no whisker', () => {
    const none = draw(BrierBars, { title: 'B', brier: { perRun: [NaN], mean: NaN, sd: NaN }, baseline: 0.25 });
    expect(all(none, 'rect', 'bar')).toHaveLength(0);
    expect(all(none, 'g', 'whisker')).toHaveLength(0);
  });
});
