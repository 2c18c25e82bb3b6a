/**
 * The margin-regime bars' intervals: regimeBars takes each regime's stored ECE interval (the
 * report's one method, eceInference), and RegimeBars draws it as whiskers on the bars' own scale,
 * with a caption naming it; the bars are marked by the report's per-bin small-sample rule.
 */
import { describe, expect, test } from 'vitest';
import RegimeBars from '../../../../src/ui/charts/RegimeBars.svelte';
import { REGIME_INTERVAL_CAPTION, regimeBars, type RegimeBar } from '../../../../src/ui/charts/regime-data';
import type { ModelMetrics } from '../../../../src/model/report';
import { all, draw, num } from './svg-markup';

const byRegime: ModelMetrics['byRegime'] = {
  // The bias-corrected intervals stay in the document, but the bars show eceInference's.
  jensen: { count: 12, ece: { sem1: 0.3, sem2: 0.12 }, eceBiasCorrected: { sem1: [0.18, 0.05, 0.29] }, eceInference: { sem1: { interval: [0.05, 0.29], p: 0.2 }, sem2: { interval: [NaN, NaN], p: NaN } } },
  'low-margin': { count: 0, ece: {} },
  'large-margin': { count: 60, ece: { sem1: 0.05, sem2: 0.2 }, eceInference: { sem1: { interval: [0.01, 0.09], p: 0.4 }, sem2: { interval: [0.1, 0.26], p: 0.001 } } },
};

describe('regimeBars', () => {
  test('a bar carries its regime’s finite interval; a NaN one, or a report without any, draws none', () => {
    const bars = regimeBars(byRegime, ['sem1', 'sem2']);
    expect(bars.map((b) => [b.regime, b.signal, b.interval ?? null])).toEqual([
      ['jensen', 'sem1', [0.05, 0.29]],
      ['jensen', 'sem2', null],
      ['large-margin', 'sem1', [0.01, 0.09]],
      ['large-margin', 'sem2', [0.1, 0.26]],
    ]);
    // A report without the inference (only the older bias-corrected interval) draws no whisker: never another method's.
    const old = { ...byRegime, jensen: { count: 12, ece: { sem1: 0.3 }, eceBiasCorrected: { sem1: [0.18, 0.05, 0.29] as [number, number, number] } } };
    expect(regimeBars(old, ['sem1']).map((b) => b.interval)).toEqual([undefined, [0.01, 0.09]]);
  });

  test('a bar is marked when its regime’s ECE rests on a bin under 10 questions, with the counts', () => {
    const small = (regime: string, signal: string) =>
      regime === 'jensen' && signal === 'sem1' ? { nonEmpty: 4, small: [1, 3], questions: 7 } : { nonEmpty: 2, small: [], questions: 0 };
    const bars = regimeBars(byRegime, ['sem1', 'sem2'], small);
    expect(bars.map((b) => b.tooFew)).toEqual([true, false, false, false]);
    expect(bars[0].smallBins).toBe('2 of 4 bins under 10 questions (7 questions)');
    // Without the rows to bin, nothing is marked (there is no rule by regime size any more).
    expect(regimeBars(byRegime, ['sem1', 'sem2']).some((b) => b.tooFew)).toBe(false);
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
      expect(num(stem, 'y1')).toBeCloseTo(base - b.interval![0] * perUnit, 9);
      expect(num(stem, 'y2')).toBeCloseTo(base - b.interval![1] * perUnit, 9);
    });
    // The small regime's interval lies below its inflated bar: the plug-in ECE is biased upward.
    expect(num(all(whiskers[0], 'line')[0], 'y2')).toBeGreaterThan(num(rects[0], 'y'));
  });

  test('the scale holds a whisker above every bar, and the caption says what the whiskers are', () => {
    const tall = regimeBars({ ...byRegime, 'large-margin': { count: 60, ece: { sem1: 0.05 }, eceInference: { sem1: { interval: [0.1, 0.6], p: 0.5 } } } }, ['sem1']);
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
