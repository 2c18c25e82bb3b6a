/**
 * Colours a chart draws, against the colours its legend shows. Each mark's fill and stroke is
 * taken as rendered: its computed colour and opacity laid over the chart's background (so a
 * translucent red is compared as the pink it looks), likewise each legend key. A translucent
 * mark over another mark blends into a colour that neither is, so one is reported as well.
 */
import type { Locator } from 'playwright-core';

export interface ChartColours {
  /** Colours drawn by marks, as '#rrggbb' with where each was seen. */
  drawn: Record<string, string>;
  legend: string[];
  /** Translucent marks drawn over other marks. */
  blended: string[];
}

export function chartColours(chart: Locator): Promise<ChartColours> {
  return chart.evaluate((figure) => {
    const parse = (c: string): [number, number, number, number] | null => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    // The colour behind the chart: the first opaque background up its ancestors.
    let back: [number, number, number, number] = [255, 255, 255, 1];
    for (let e: Element | null = figure; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        back = c;
        break;
      }
    }
    const hex = (c: [number, number, number, number], alpha: number) => {
      const a = c[3] * alpha;
      return '#' + [0, 1, 2].map((i) => Math.round(c[i] * a + back[i] * (1 - a)).toString(16).padStart(2, '0')).join('');
    };
    const opacityUp = (e: Element, stop: Element) => {
      let o = 1;
      for (let x: Element | null = e; x && x !== stop; x = x.parentElement) o *= Number(getComputedStyle(x).opacity);
      return o;
    };
    const svg = figure.querySelector('.frame > svg')!;
    const drawn: Record<string, string> = {};
    const painted: { el: Element; colour: string; alpha: number; box: DOMRect }[] = [];
    const name = (e: Element) => `${e.tagName}.${e.getAttribute('class') ?? ''}`;
    for (const e of svg.querySelectorAll('rect, circle, path, line, polyline, polygon, ellipse')) {
      // Inside the chart's own svg only: a chart laid out in a div.grid (the report's panels) is not a grid line.
      const skip = e.closest('.grid, .axis, .tick, title');
      if (skip && svg.contains(skip)) continue;
      const style = getComputedStyle(e);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const o = opacityUp(e, svg);
      const box = e.getBoundingClientRect();
      for (const [paint, alpha] of [[style.fill, Number(style.fillOpacity)], [style.stroke, Number(style.strokeOpacity)]] as const) {
        if (paint === 'none' || (paint === style.stroke && parseFloat(style.strokeWidth) === 0)) continue;
        // A line has no inside: its fill (black by default) is never painted.
        if (paint === style.fill && e.tagName === 'line') continue;
        const c = parse(paint);
        if (!c || c[3] === 0 || alpha * o === 0) continue;
        const colour = hex(c, alpha * o);
        drawn[colour] ??= name(e);
        painted.push({ el: e, colour, alpha: c[3] * alpha * o, box });
      }
    }
    const legend: string[] = [];
    for (const key of figure.querySelectorAll('.legend .key')) {
      for (const e of key.querySelectorAll('*')) {
        if (e instanceof SVGElement && !(e instanceof SVGGeometryElement)) continue;
        const style = getComputedStyle(e);
        const o = opacityUp(e, key);
        const paints = e instanceof SVGGeometryElement ? [[style.fill, Number(style.fillOpacity)], [style.stroke, Number(style.strokeOpacity)]] : [[style.backgroundColor, 1], ...(['Top', 'Left'] as const).filter((s) => parseFloat(style[`border${s}Width`]) > 0).map((s) => [style[`border${s}Color`], 1])];
        for (const [paint, alpha] of paints as [string, number][]) {
          const c = parse(paint);
          if (c && c[3] > 0) legend.push(hex(c, alpha * o));
        }
      }
    }
    const blended: string[] = [];
    const hit = (a: DOMRect, b: DOMRect) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    for (const p of painted) {
      if (p.alpha > 0.99) continue;
      const under = painted.find((q) => q.el !== p.el && q.colour !== p.colour && hit(p.box, q.box) && (q.el.compareDocumentPosition(p.el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0);
      if (under) blended.push(`${name(p.el)} ${p.colour} at ${p.alpha.toFixed(2)} over ${name(under.el)} ${under.colour}`);
    }
    return { drawn, legend: [...new Set(legend)], blended: [...new Set(blended)] };
  });
}

/** The drawn colours that no legend key shows (within 6 of 255 per channel: rounding of blends). */
export function missingFromLegend(c: ChartColours): string[] {
  const rgb = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const near = (a: string, b: string) => rgb(a).every((v, i) => Math.abs(v - rgb(b)[i]) <= 6);
  return Object.entries(c.drawn)
    .filter(([colour]) => !c.legend.some((l) => near(l, colour)))
    .map(([colour, where]) => `${colour} (${where})`);
}
