import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { markerPath, signalColor, signalShape } from '../../../../src/ui/charts/signal-styles';
import { SIGNAL_ORDER } from '../../../../src/model/signals';

/**
 * The signals' palette as the theme declares it, read from theme.css: every signal is told apart
 * from every other by readers with each common colour-vision deficiency (simulated with Machado,
 * Oliveira & Fernandes 2009's matrices at full severity), in both themes, and each colour stands
 * out from the page (WCAG 1.4.11: 3:1 for graphics).
 */
const css = readFileSync('src/ui/theme.css', 'utf8');
function block(selector: string): Record<string, string> {
  const start = css.indexOf(selector);
  const body = css.slice(css.indexOf('{', start) + 1, css.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1], m[2]]));
}
const light = block(':root {');
const dark = { ...light, ...block(":root[data-theme='dark']") };

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex).map(linear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
const MACHADO: Record<string, number[][]> = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};
/** CIE L*a*b* of a linear RGB triple (D65). */
function lab([r, g, b]: number[]): number[] {
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
function seen(hex: string, deficiency?: string): number[] {
  const c = rgb(hex).map(linear);
  if (!deficiency) return lab(c);
  const m = MACHADO[deficiency];
  return lab(m.map((row) => Math.min(1, Math.max(0, row[0] * c[0] + row[1] * c[1] + row[2] * c[2]))));
}
const deltaE = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

const SERIES = ['series-sem1', 'series-sem2', 'series-verbalized', 'series-stated', 'series-logprob', 'series-entropy'];

describe.each([
  ['light', light, light.bg],
  ['dark', dark, dark.bg],
])('the %s palette', (_name, theme, bg) => {
  test('declares a colour for every signal', () => {
    for (const s of SERIES) expect(theme[s], s).toMatch(/^#[0-9a-f]{6}$/i);
  });
  test('each signal colour stands out from the page at 3:1', () => {
    for (const s of SERIES) expect(contrast(theme[s], bg), s).toBeGreaterThanOrEqual(3);
  });
  test.each([undefined, 'protanopia', 'deuteranopia', 'tritanopia'])('signals stay apart with vision %s', (deficiency) => {
    // The three the paper compares (Sem1, Sem2, verbalized) stay far apart (CIE76 ΔE ≥ 20), every other pair clearly apart (ΔE ≥ 9).
    for (let i = 0; i < SERIES.length; i++) {
      for (let j = i + 1; j < SERIES.length; j++) {
        const d = deltaE(seen(theme[SERIES[i]], deficiency), seen(theme[SERIES[j]], deficiency));
        expect(d, `${SERIES[i]} vs ${SERIES[j]}`).toBeGreaterThanOrEqual(i < 3 && j < 3 ? 20 : 9);
      }
    }
  });
});

test('every signal has its own colour variable and its own marker shape, so colour is never the only cue', () => {
  const shapes = SIGNAL_ORDER.map(signalShape);
  expect(new Set(shapes).size).toBe(SIGNAL_ORDER.length);
  const colours = SIGNAL_ORDER.map(signalColor);
  expect(new Set(colours).size).toBe(SIGNAL_ORDER.length);
  for (const c of colours) expect(c).toMatch(/^var\(--series-[\w]+\)$/);
  for (const s of shapes) expect(markerPath(s)).toMatch(/^M/);
  // The marker's area is the one asked for: a square of area 64 is 8 wide.
  expect(markerPath('square', 64)).toBe('M-4,-4h8v8h-8Z');
});
