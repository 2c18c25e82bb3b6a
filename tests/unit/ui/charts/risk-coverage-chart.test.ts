import { describe, expect, test } from 'vitest';
import RiskCoverageChart from '../../../../src/ui/charts/RiskCoverageChart.svelte';
import { riskCoverageCurve } from '../../../../src/core/risk-coverage';
import { thinCurve } from '../../../../src/ui/report/selective-data';
import { all, draw, num } from './svg-markup';

// The chart's plot: x over [52, 426], y from 244 (bottom) up to 12 (top), viewBox 440 × 290.
const LEFT = 52;
const RIGHT = 426;
const TOP = 12;
const BOTTOM = 244;

/** The vertices of a path written as M x,y L x,y … */
const vertices = (d: string) => [...d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);

describe('RiskCoverageChart', () => {
  // The hand-computed curve of tests/unit/core/risk-coverage.test.ts: risks 0, 1/4, 1/3, 1/2 at coverage 1/4 … 1.
  const curve = riskCoverageCurve([0.8, 0.9, 0.5, 0.8], [1, 1, 0, 0]);
  const points = thinCurve(curve);
  const svg = draw(RiskCoverageChart, {
    title: 'T',
    series: [{ key: 'sem1', label: 'Sem1', color: 'red', points, markers: [points[1]] }],
    target: 0.2,
    marked: { key: 'sem1', point: points[2], color: 'red', tip: 'threshold' },
  });
  // The error axis runs to the highest risk drawn, 0.5.
  const x = (c: number) => LEFT + c * (RIGHT - LEFT);
  const y = (r: number) => BOTTOM - (r / 0.5) * (BOTTOM - TOP);

  test('draws every point of the curve, in proportion to coverage and risk', () => {
    const path = all(svg, 'path').find((p) => p.attrs['data-points'] === '4')!;
    expect(vertices(path.attrs.d)).toEqual(points.map((p) => [expect.closeTo(x(p.coverage), 1), expect.closeTo(y(p.risk), 1)]));
  });

  test('draws the target as a rule and the threshold as a point on the curve', () => {
    const rule = all(svg, 'g').find((g) => g.attrs['data-target'] === '0.2')!;
    const line = all(rule, 'line')[0];
    expect(num(line, 'y1')).toBeCloseTo(y(0.2), 9);
    const mark = all(svg, 'circle').find((c) => c.attrs['data-threshold-mark'] === 'sem1')!;
    expect(num(mark, 'cx')).toBeCloseTo(x(0.75), 9);
    expect(num(mark, 'cy')).toBeCloseTo(y(1 / 3), 9);
    expect(mark.attrs['aria-label']).toBe('threshold');
  });
});
