/**
 * The margin-regime bars' intervals: regimeBars takes each regime's stored bias-corrected
 * interval, and RegimeBars draws it as whiskers on the bars' own scale, with a caption naming it.
 */
import { describe, expect, test } from 'vitest';
import RegimeBars from '../../../../src/ui/charts/RegimeBars.svelte';
import { REGIME_INTERVAL_CAPTION, regimeBars, type RegimeBar } from '../../../../src/ui/charts/regime-data';
import type { ModelMetrics } from '../../../../src/model/report';
import { all, draw, num } from './svg-markup';

const byRegime: ModelMetrics['byRegime'] = {
  jensen: { count: 12, ece: { sem1: 0.3, sem2: 0.12 }, eceBiasCorrected: { sem1: [0.18, 0.05, 0.29], sem2: [NaN, NaN, NaN] } },
  'low-margin': { count: 0, ece: {} },
  'large-margin': { count: 60, ece: { sem1: 0.05, sem2: 0.2 }, eceBiasCorrected: { sem1: [0.04, 0.01, 0.09], sem2: [0.17, 0.1, 0.26] } },
};

describe('regimeBars', () => {
  test('a bar carries its regime’s finite interval; a NaN one, or a report without any, draws none', () => {
    const bars = regimeBars(byRegime, ['sem1', 'sem2']);
    expect(bars.map((b) => [b.regime, b.signal, b.interval ?? null])).toEqual([
      ['jensen', 'sem1', [0.18, 0.05, 0.29]],
      ['jensen', 'sem2', null],
      ['large-margin', 'sem1', [0.04, 0.01, 0.09]],
      ['large-margin', 'sem2', [0.17, 0.1, 0.26]],
    ]);
    const old = { ...byRegime, jensen: { count: 12, ece: { sem1: 0.3 } } };
    expect(regimeBars(old, ['sem1']).map((b) => b.interval)).toEqual([undefined, [0.04, 0.01, 0.09]]);
  });
});

describe('RegimeBars whiskers', () => {
  const bars: RegimeBar[] = regimeBars(byRegime, ['sem1', 'sem2']);
  const svg = draw(RegimeBars, { title: 'R', bars, signals: ['sem1', 'sem2'] });
  const rects = all(svg, 'rect', 'bar');
  const whiskers = all(svg, 'g', 'ci');

  test('one whisker per bar with an interval, centred on its bar, spanning [low, high] on the bars’ scale', () => {
    const withCi = bars.filter((b) => b.interval);
    expect(whiskers.map((w) => `${w.attrs['data-regime']}:${w.attrs['data-signal']}`)).toEqual(withCi.map((b) => `${b.regime}:${b.signal}`));
    const base = num(rects[0], 'y') + num(rects[0], 'height');
    const perUnit = num(rects[0], 'height') / bars[0].ece;
    whiskers.forEach((w, i) => {
      const b = withCi[i];
      const rect = rects[bars.indexOf(b)];
      const stem = all(w, 'line')[0];
      expect(num(stem, 'x1')).toBeCloseTo(num(rect, 'x') + num(rect, 'width') / 2, 9);
      expect(num(stem, 'y1')).toBeCloseTo(base - b.interval![1] * perUnit, 9);
      expect(num(stem, 'y2')).toBeCloseTo(base - b.interval![2] * perUnit, 9);
    });
    // The small regime's interval lies below its inflated bar: the estimate with the bias removed.
    expect(num(all(whiskers[0], 'line')[0], 'y2')).toBeGreaterThan(num(rects[0], 'y'));
  });

  test('the scale holds a whisker above every bar, and the caption says what the whiskers are', () => {
    const tall = regimeBars({ ...byRegime, 'large-margin': { count: 60, ece: { sem1: 0.05 }, eceBiasCorrected: { sem1: [0.2, 0.1, 0.6] } } }, ['sem1']);
    const s = draw(RegimeBars, { title: 'R', bars: tall, signals: ['sem1'] });
    const top = Math.min(...all(s, 'g', 'ci').map((w) => num(all(w, 'line')[0], 'y2')));
    expect(top).toBeGreaterThanOrEqual(0);
    const text = (n: { text: string; children: any[] }): string => n.text + n.children.map(text).join('');
    expect(text(svg)).toContain(REGIME_INTERVAL_CAPTION.slice(0, 40));
    const none = draw(RegimeBars, { title: 'R', bars: bars.map(({ interval, ...b }) => b), signals: ['sem1', 'sem2'] });
    expect(all(none, 'g', 'ci')).toEqual([]);
    expect(text(none)).not.toContain('Whiskers');
  });
});
