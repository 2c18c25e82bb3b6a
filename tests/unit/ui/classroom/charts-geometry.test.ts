/**
 * The classroom's charts rendered in Node (svelte/server), measured from their markup: positions
 * and spans against the simulated numbers they draw.
 */
import { describe, expect, test } from 'vitest';
import BiasByMargin from '../../../../src/ui/classroom/BiasByMargin.svelte';
import ConvergenceChart from '../../../../src/ui/classroom/ConvergenceChart.svelte';
import EstimatesScatter from '../../../../src/ui/classroom/EstimatesScatter.svelte';
import type { MarginBin, QuestionPoint } from '../../../../src/ui/classroom/classroom-model';
import type { ConvergencePoint } from '../../../../src/ui/classroom/classroom-steps';
import { all, draw, num, type Node } from '../charts/svg-markup';

const ms = (mean: number, se: number) => ({ mean, se });
const chart = (root: Node, name: string) => {
  const found = all(root, 'figure').find((f) => f.attrs['data-chart'] === name);
  if (!found) throw new Error(`no chart ${name}`);
  return found;
};

describe('EstimatesScatter', () => {
  const points: QuestionPoint[] = Array.from({ length: 200 }, (_, i) => {
    const cStar = 0.3 + (i % 50) * 0.012;
    return { index: i, cStar, sem1: Math.min(1, cStar + 0.1), sem2: cStar - 0.05, y: 1, yStar: 1, piMargin: 0.1 };
  });
  const svg = draw(EstimatesScatter, { points });

  test('each question’s two dots share its x ∝ c*, and sit at heights ∝ Sem1 and Sem2', () => {
    const dots = all(svg, 'circle');
    expect(dots).toHaveLength(2 * points.length);
    const [x0, x1] = [num(dots[0], 'cx'), num(dots[2], 'cx')];
    const perX = (x1 - x0) / (points[1].cStar - points[0].cStar);
    const bottom = num(all(all(svg, 'g', 'x-axis')[0], 'line')[0], 'y1');
    const perY = (bottom - num(dots[0], 'cy')) / points[0].sem1;
    points.forEach((p, i) => {
      expect(num(dots[2 * i], 'cx')).toBeCloseTo(x0 + (p.cStar - points[0].cStar) * perX, 9);
      expect(num(dots[2 * i + 1], 'cx')).toBe(num(dots[2 * i], 'cx'));
      expect(bottom - num(dots[2 * i], 'cy')).toBeCloseTo(p.sem1 * perY, 9);
      expect(bottom - num(dots[2 * i + 1], 'cy')).toBeCloseTo(p.sem2 * perY, 9);
    });
  });

  test('the mean lines lean to each side of the diagonal: Sem1 above, Sem2 below', () => {
    const pathY = (series: string) => {
      const d = all(svg, 'path').find((p) => p.attrs['data-series'] === series)!.attrs.d;
      return [...d.matchAll(/[ML]([-\d.]+),([-\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    };
    const diagonal = all(svg, 'line', 'diagonal')[0];
    const diagY = (x: number) => num(diagonal, 'y1') + ((x - num(diagonal, 'x1')) / (num(diagonal, 'x2') - num(diagonal, 'x1'))) * (num(diagonal, 'y2') - num(diagonal, 'y1'));
    const sem1 = pathY('sem1');
    const sem2 = pathY('sem2');
    expect(sem1.length).toBeGreaterThan(2);
    for (const [x, y] of sem1) expect(y).toBeLessThan(diagY(x));
    for (const [x, y] of sem2) expect(y).toBeGreaterThan(diagY(x));
  });
});

describe('BiasByMargin', () => {
  const bins: MarginBin[] = [
    { lo: 0, hi: 0.05, count: 30, bias1: ms(0.12, 0.01), bias2: ms(-0.04, 0.02), gap: ms(0.16, 0.01) },
    { lo: 0.05, hi: 0.1, count: 30, bias1: ms(0.08, 0.01), bias2: ms(-0.02, 0.01), gap: ms(0.1, 0.01) },
    { lo: 0.1, hi: 0.15, count: 30, bias1: ms(0.03, 0.005), bias2: ms(-0.01, 0.005), gap: ms(0.04, 0.01) },
  ];
  const svg = draw(BiasByMargin, { bins, n: 50 });
  const dots = (s: string) => all(svg, 'circle').filter((c) => c.attrs['data-series'] === s);

  test('dots rise linearly with the mean bias; whiskers span ±2 SE on the same scale', () => {
    const s1 = dots('sem1');
    const perBias = (num(s1[0], 'cy') - num(s1[1], 'cy')) / (bins[0].bias1.mean - bins[1].bias1.mean);
    expect(perBias).toBeLessThan(0);
    s1.forEach((d, i) => expect(num(d, 'cy') - num(s1[0], 'cy')).toBeCloseTo((bins[i].bias1.mean - bins[0].bias1.mean) * perBias, 9));
    const stems = all(svg, 'line').filter((l) => l.attrs.x1 === l.attrs.x2 && l.attrs.y1 !== l.attrs.y2 && dots('sem2').some((d) => d.attrs.cx === l.attrs.x1));
    expect(stems).toHaveLength(bins.length);
    stems.forEach((l, i) => expect(Math.abs(num(l, 'y2') - num(l, 'y1'))).toBeCloseTo(4 * bins[i].bias2.se * Math.abs(perBias), 9));
  });

  test('the two series sit 3 units either side of the bin’s middle margin', () => {
    const [a, b] = [dots('sem1'), dots('sem2')];
    a.forEach((d, i) => expect(num(b[i], 'cx') - num(d, 'cx')).toBeCloseTo(6, 9));
    const mid = a.map((d) => num(d, 'cx') + 3);
    expect(mid[2] - mid[1]).toBeCloseTo(mid[1] - mid[0], 9);
  });
});

describe('ConvergenceChart', () => {
  const at = (n: number, e: number): ConvergencePoint => ({ n, eceSem1: e, eceSem2: e / 2, eceStar: e / 4, bias1: ms(e, 0.01), bias2: ms(-e / 2, 0.01) });
  const svg = draw(ConvergenceChart, { points: [at(4, 0.2), at(8, 0.1), at(16, 0.05), at(64, 0.02)] });

  test('n on a log scale: each doubling moves a point the same distance', () => {
    const cx = all(chart(svg, 'convergence-ece'), 'circle')
      .filter((c) => c.attrs['data-series'] === 'sem1')
      .map((c) => num(c, 'cx'));
    const step = cx[1] - cx[0];
    expect(cx[2] - cx[1]).toBeCloseTo(step, 9);
    expect(cx[3] - cx[2]).toBeCloseTo(2 * step, 9);
  });

  test('ECE points at heights ∝ their ECE; bias points symmetric about the zero line', () => {
    const ece = all(chart(svg, 'convergence-ece'), 'circle').filter((c) => c.attrs['data-n'] === '8');
    const bottom = num(all(all(chart(svg, 'convergence-ece'), 'g', 'x-axis')[0], 'line')[0], 'y1');
    const heights = ece.map((c) => bottom - num(c, 'cy'));
    expect(heights.map((h) => h / heights[0])).toEqual([1, 0.5, 0.25].map((r) => expect.closeTo(r, 9)));
    const bias = chart(svg, 'convergence-bias');
    const zero = num(all(bias, 'line').find((l) => l.attrs.stroke === 'var(--fg)')!, 'y1');
    const [b1, b2] = all(bias, 'circle').filter((c) => c.attrs['data-n'] === '16');
    expect(zero - num(b1, 'cy')).toBeCloseTo(2 * (num(b2, 'cy') - zero), 9);
  });

  test('each of its two panels offers SVG and PNG export, as the report\'s charts do', () => {
    expect(all(svg, 'figure')).toHaveLength(2);
    const labels = all(svg, 'button').map((b) => JSON.stringify(b));
    expect(labels).toHaveLength(4);
    expect(labels.filter((l) => /SVG/.test(l))).toHaveLength(2);
    expect(labels.filter((l) => /PNG/.test(l))).toHaveLength(2);
  });
});
