import { describe, expect, test } from 'vitest';
import AxisX from '../../../../src/ui/charts/AxisX.svelte';
import AxisY from '../../../../src/ui/charts/AxisY.svelte';
import Bars from '../../../../src/ui/charts/Bars.svelte';
import Diagonal from '../../../../src/ui/charts/Diagonal.svelte';
import Line from '../../../../src/ui/charts/Line.svelte';
import Points from '../../../../src/ui/charts/Points.svelte';
import RuleY from '../../../../src/ui/charts/RuleY.svelte';
import Whiskers from '../../../../src/ui/charts/Whiskers.svelte';
import PlotFixture from './plot.test.svelte';
import FacetsFixture from './facets.test.svelte';
import { all, draw, num, translation, type Node } from './svg-markup';

// The fixture's plot: x from 40 to 400, y from 210 (bottom) up to 10 (top).
const LEFT = 40;
const RIGHT = 400;
const TOP = 10;
const BOTTOM = 210;

type Layer = { layer: unknown; props: Record<string, unknown> };
const plot = (x: unknown, y: unknown, ...layers: Layer[]): Node => draw(PlotFixture, { x, y, layers } as never);
const bottomOf = (r: Node) => num(r, 'y') + num(r, 'height');
const ratios = (xs: number[]) => xs.map((v) => v / xs[0]);

describe('Bars', () => {
  const data = [
    { k: 'a', v: 0.1 },
    { k: 'b', v: 0.4 },
    { k: 'c', v: 0.25 },
  ];
  const band = { type: 'band', domain: ['a', 'b', 'c'], paddingInner: 0.2 };

  test('on a band scale: height ∝ value, one base, equal widths, bands in domain order', () => {
    const svg = plot(band, { domain: [0, 0.5] }, { layer: Bars, props: { data, key: (d: { k: string }) => d.k, x: (d: { k: string }) => d.k, y: (d: { v: number }) => d.v, class: 'bar' } });
    const rects = all(svg, 'rect', 'bar');
    expect(rects).toHaveLength(3);
    expect(ratios(rects.map((r) => num(r, 'height')))).toEqual(ratios(data.map((d) => d.v)).map((r) => expect.closeTo(r, 9)));
    // The domain [0, 0.5] spans the plot's 200 units of height.
    expect(num(rects[1], 'height')).toBeCloseTo(0.4 * 400, 9);
    for (const r of rects) expect(bottomOf(r)).toBeCloseTo(BOTTOM, 9);
    const widths = rects.map((r) => num(r, 'width'));
    expect(new Set(widths.map((w) => w.toFixed(9))).size).toBe(1);
    const xs = rects.map((r) => num(r, 'x'));
    expect(xs[0]).toBeGreaterThanOrEqual(LEFT);
    expect(xs[1] - xs[0]).toBeCloseTo(xs[2] - xs[1], 9);
    expect(xs[2] + widths[2]).toBeLessThanOrEqual(RIGHT + 1e-9);
  });

  test('on a continuous x with x1–x2: left edge and width ∝ the span; minHeight keeps a sliver at the base', () => {
    const bins = [
      { lo: 0, hi: 0.1, v: 0 },
      { lo: 0.1, hi: 0.3, v: 0.5 },
      { lo: 0.5, hi: 1, v: 1 },
    ];
    const svg = plot({ domain: [0, 1] }, { domain: [0, 1] }, {
      layer: Bars,
      props: { data: bins, key: (b: { lo: number }) => b.lo, x1: (b: { lo: number }) => b.lo, x2: (b: { hi: number }) => b.hi, y: (b: { v: number }) => b.v, minHeight: 2 },
    });
    const rects = all(svg, 'rect');
    const span = RIGHT - LEFT;
    rects.forEach((r, i) => {
      expect(num(r, 'x')).toBeCloseTo(LEFT + bins[i].lo * span, 9);
      expect(num(r, 'width')).toBeCloseTo((bins[i].hi - bins[i].lo) * span, 9);
      expect(bottomOf(r)).toBeCloseTo(BOTTOM, 9);
    });
    expect(num(rects[0], 'height')).toBe(2);
    expect(num(rects[1], 'height')).toBeCloseTo(100, 9);
    expect(num(rects[2], 'height')).toBeCloseTo(200, 9);
  });

  test('from y1 to y: the rectangle spans the two values, whichever is larger', () => {
    const gaps = [
      { a: 0.2, b: 0.5 },
      { a: 0.9, b: 0.6 },
    ];
    const svg = plot({ domain: [0, 1] }, { domain: [0, 1] }, {
      layer: Bars,
      props: { data: gaps, key: (_: unknown, i: number) => i, x1: () => 0, x2: () => 0.5, y1: (g: { a: number }) => g.a, y: (g: { b: number }) => g.b },
    });
    const [up, down] = all(svg, 'rect');
    expect(num(up, 'height')).toBeCloseTo(0.3 * 200, 9);
    expect(num(up, 'y')).toBeCloseTo(BOTTOM - 0.5 * 200, 9);
    expect(num(down, 'height')).toBeCloseTo(0.3 * 200, 9);
    expect(num(down, 'y')).toBeCloseTo(BOTTOM - 0.9 * 200, 9);
  });

  test('a mark with a tip is labelled and focusable (out of the Tab order until the frame roves to it); without focusable it is labelled only', () => {
    const props = { data, key: (d: { k: string }) => d.k, x: (d: { k: string }) => d.k, y: (d: { v: number }) => d.v, tip: (d: { k: string }) => `bar ${d.k}` };
    const focusable = all(plot(band, { domain: [0, 1] }, { layer: Bars, props }), 'rect');
    expect(focusable.map((r) => [r.attrs['aria-label'], r.attrs.tabindex, r.attrs.role, r.attrs['data-mark']])).toEqual(data.map((d) => [`bar ${d.k}`, '-1', 'graphics-symbol', '']));
    const titled = all(plot(band, { domain: [0, 1] }, { layer: Bars, props: { ...props, focusable: false, titled: true } }), 'rect');
    expect(titled.map((r) => r.attrs.tabindex)).toEqual([undefined, undefined, undefined]);
    expect(titled.map((r) => r.attrs['data-mark'])).toEqual([undefined, undefined, undefined]);
    expect(titled.map((r) => all(r, 'title')[0].text)).toEqual(['bar a', 'bar b', 'bar c']);
  });

  test('nested plots split each outer band: bars of a group lie inside its band, groups side by side', () => {
    const bars = [
      { group: 'g1', series: 's1', value: 0.5 },
      { group: 'g1', series: 's2', value: 0.25 },
      { group: 'g2', series: 's1', value: 1 },
      { group: 'g2', series: 's2', value: 0.75 },
    ];
    const svg = draw(FacetsFixture, { groups: ['g1', 'g2'], series: ['s1', 's2'], bars });
    const rects = all(svg, 'rect', 'bar');
    expect(ratios(rects.map((r) => num(r, 'height')))).toEqual(ratios(bars.map((b) => b.value)).map((r) => expect.closeTo(r, 9)));
    // Outer band width with paddingInner 0.25 over 2 bands: step = 360 / (2 − 0.25), band = 0.75 step.
    const step = (RIGHT - LEFT) / 1.75;
    const g1 = rects.filter((r) => r.attrs['data-group'] === 'g1');
    const g2 = rects.filter((r) => r.attrs['data-group'] === 'g2');
    expect(num(g1[0], 'x')).toBeCloseTo(LEFT, 9);
    expect(num(g1[1], 'x') + num(g1[1], 'width')).toBeCloseTo(LEFT + 0.75 * step, 9);
    expect(num(g2[0], 'x')).toBeCloseTo(LEFT + step, 9);
    expect(num(g2[0], 'x') - num(g1[0], 'x')).toBeCloseTo(step, 9);
    expect(num(g1[0], 'width')).toBeCloseTo(num(g2[1], 'width'), 9);
  });
});

describe('Points', () => {
  test('cx ∝ x and cy falls linearly with y; dx shifts every dot', () => {
    const data = [
      { c: 0.1, v: 0.2 },
      { c: 0.55, v: 0.9 },
      { c: 1, v: 0 },
    ];
    const props = { data, key: (_: unknown, i: number) => i, x: (d: { c: number }) => d.c, y: (d: { v: number }) => d.v, r: 3 };
    const dots = all(plot({ domain: [0, 1] }, { domain: [0, 1] }, { layer: Points, props }), 'circle');
    dots.forEach((d, i) => {
      expect((num(d, 'cx') - LEFT) / (RIGHT - LEFT)).toBeCloseTo(data[i].c, 9);
      expect((BOTTOM - num(d, 'cy')) / (BOTTOM - TOP)).toBeCloseTo(data[i].v, 9);
    });
    const shifted = all(plot({ domain: [0, 1] }, { domain: [0, 1] }, { layer: Points, props: { ...props, dx: -3 } }), 'circle');
    shifted.forEach((d, i) => expect(num(d, 'cx')).toBeCloseTo(num(dots[i], 'cx') - 3, 9));
  });

  test('on a base-2 log scale, each doubling of x moves a dot the same distance', () => {
    const ns = [4, 8, 16, 32, 64];
    const props = { data: ns, key: (n: number) => n, x: (n: number) => n, y: () => 0.5 };
    const cx = all(plot({ type: 'log', base: 2, domain: [4, 64] }, { domain: [0, 1] }, { layer: Points, props }), 'circle').map((d) => num(d, 'cx'));
    expect(cx[0]).toBeCloseTo(LEFT, 9);
    expect(cx[4]).toBeCloseTo(RIGHT, 9);
    for (let i = 1; i < ns.length; i++) expect(cx[i] - cx[i - 1]).toBeCloseTo((RIGHT - LEFT) / 4, 9);
  });
});

describe('Whiskers', () => {
  test('span ∝ the interval, centred on the band, with caps 2 × cap wide at both ends', () => {
    const data = [
      { k: 'a', lo: 0.2, hi: 0.4 },
      { k: 'b', lo: 0.1, hi: 0.9 },
    ];
    const svg = plot({ type: 'band', domain: ['a', 'b'] }, { domain: [0, 1] }, {
      layer: Whiskers,
      props: { data, key: (d: { k: string }) => d.k, x: (d: { k: string }) => d.k, y1: (d: { lo: number }) => d.lo, y2: (d: { hi: number }) => d.hi, cap: 6, class: 'whisker' },
    });
    const groups = all(svg, 'g', 'whisker');
    groups.forEach((g, i) => {
      const [stem, ...caps] = all(g, 'line');
      expect(Math.abs(num(stem, 'y1') - num(stem, 'y2'))).toBeCloseTo((data[i].hi - data[i].lo) * 200, 9);
      expect(num(stem, 'y1')).toBeCloseTo(BOTTOM - data[i].lo * 200, 9);
      // Two bands over 360 units, no padding: centres at 40 + 90 and 40 + 270.
      expect(num(stem, 'x1')).toBeCloseTo(LEFT + 90 + 180 * i, 9);
      expect(caps).toHaveLength(2);
      for (const c of caps) expect(num(c, 'x2') - num(c, 'x1')).toBe(12);
    });
  });
});

describe('Line, Diagonal and RuleY', () => {
  test('a line passes through the data in order; the diagonal runs from (0, 0) to (1, 1)', () => {
    const data = [
      { x: 0, y: 0.5 },
      { x: 0.5, y: 1 },
    ];
    const svg = plot({ domain: [0, 1] }, { domain: [0, 1] },
      { layer: Line, props: { data, x: (d: { x: number }) => d.x, y: (d: { y: number }) => d.y, stroke: 'red' } },
      { layer: Diagonal, props: {} },
      { layer: RuleY, props: { value: 0.25, stroke: 'blue', label: 'base' } },
    );
    expect(all(svg, 'path')[0].attrs.d).toBe('M40.0,110.0L220.0,10.0');
    const diagonal = all(svg, 'line', 'diagonal')[0];
    expect([num(diagonal, 'x1'), num(diagonal, 'y1'), num(diagonal, 'x2'), num(diagonal, 'y2')]).toEqual([LEFT, BOTTOM, RIGHT, TOP]);
    const rule = all(all(svg, 'g').find((g) => all(g, 'text')[0]?.text === 'base')!, 'line')[0];
    expect([num(rule, 'x1'), num(rule, 'x2'), num(rule, 'y1')]).toEqual([LEFT, RIGHT, BOTTOM - 50]);
  });
});

describe('axes', () => {
  test('x ticks sit where the scale puts them; band ticks at band centres', () => {
    const linear = all(plot({ domain: [0, 1] }, { domain: [0, 1] }, { layer: AxisX, props: { format: (t: number) => t.toFixed(1), label: 'x' } }), 'g', 'tick');
    expect(linear.map((t) => all(t, 'text')[0].text)).toEqual(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
    linear.forEach((t, i) => expect(translation(t)).toEqual([expect.closeTo(LEFT + (i / 5) * (RIGHT - LEFT), 9), BOTTOM]));
    const band = all(plot({ type: 'band', domain: ['p', 'q'] }, { domain: [0, 1] }, { layer: AxisX, props: { sublabel: (t: string) => `n ${t}` } }), 'g', 'tick');
    expect(band.map((t) => translation(t)[0])).toEqual([LEFT + 90, LEFT + 270]);
    expect(band.map((t) => all(t, 'text').map((x) => x.text))).toEqual([['p', 'n p'], ['q', 'n q']]);
  });

  test('y ticks rise linearly with their value; integer keeps whole counts only', () => {
    const ticks = all(plot({ domain: [0, 1] }, { domain: [0, 4] }, { layer: AxisY, props: { label: 'Count', count: 8, integer: true, format: String } }), 'g', 'tick');
    expect(ticks.map((t) => all(t, 'text')[0].text)).toEqual(['0', '1', '2', '3', '4']);
    ticks.forEach((t, i) => expect(translation(t)).toEqual([LEFT, expect.closeTo(BOTTOM - i * 50, 9)]));
  });
});
