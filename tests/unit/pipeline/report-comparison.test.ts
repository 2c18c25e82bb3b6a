/**
 * Comparing reports (pipeline/report-alignment.ts, report-comparison.ts) and Holm's adjustment
 * (core/holm.ts): the shared and unshared questions, the sign and interval of a difference where
 * one report is clearly worse calibrated, the settings that differ, the correction's families.
 */
import { describe, expect, test } from 'vitest';
import { eceEqualWidth } from '../../../src/core/ece';
import { eceDifference, eceLevelIntervals } from '../../../src/core/ece-difference-inference';
import { eceInference } from '../../../src/core/ece-inference';
import { holmAdjust } from '../../../src/core/holm';
import { alignQuestions, compareEntries } from '../../../src/pipeline/report-alignment';
import { compareReports } from '../../../src/pipeline/report-comparison';
import { comparisonLatex, comparisonMarkdown, comparisonTable } from '../../../src/pipeline/report-comparison-table';
import { documentOf, drawRows, modelOf } from './compare-reports';

describe('alignment', () => {
  test('by id and whitespace-normalised text; the rest listed; a repeated key keeps the first', () => {
    const a = modelOf('a', { conf: [0.5, 0.6, 0.7, 0.8], y: [1, 0, 1, 1], ids: ['1', '2', '3', '1'], texts: ['One?', 'Two  words?', 'Three?', 'One?'] });
    const b = modelOf('b', { conf: [0.5, 0.6, 0.7, 0.8], y: [1, 0, 1, 1], ids: ['3', '2', '1', '4'], texts: ['Three?', ' Two\nwords? ', 'Another one?', 'Four?'] });
    const al = alignQuestions(a.questions, b.questions);
    expect(al.shared).toEqual([{ a: 1, b: 1 }, { a: 2, b: 0 }]);
    expect(al.onlyA).toEqual([{ id: '1', question: 'One?' }]);
    expect(al.onlyB).toEqual([{ id: '1', question: 'Another one?' }, { id: '4', question: 'Four?' }]);
    expect(al.duplicatesA).toBe(1);
    expect(al.duplicatesB).toBe(0);
  });

  test('entries are named by model, with the file when two share a name', () => {
    const rows = drawRows(20, 0, 1);
    const e = compareEntries([
      { source: 'x.json', document: documentOf([modelOf('m', rows), modelOf('n', rows)]) },
      { source: 'y.json', document: documentOf([modelOf('m', rows)]) },
    ]);
    expect(e.map((x) => x.name)).toEqual(['m (x.json)', 'n', 'm (y.json)']);
  });
});

describe('Holm', () => {
  test('a hand case: sorted p times (m − k + 1), made monotone, capped at 1', () => {
    // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max so far 0.06.
    const adj = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((v, i) => expect(adj[i]).toBeCloseTo(v, 15));
    expect(holmAdjust([0.5, 0.6])).toEqual([1, 1]);
  });
  test('an untested (NaN) p is left out of the family', () => {
    const adj = holmAdjust([0.02, NaN, 0.04]);
    expect(adj[0]).toBeCloseTo(0.04, 15);
    expect(adj[1]).toBeNaN();
    expect(adj[2]).toBeCloseTo(0.04, 15);
  });
});

describe('paired differences', () => {
  const N = 400;
  const good = drawRows(N, 0, 11);
  // The same questions and outcomes, every confidence raised by 0.25: clearly overconfident.
  const over = { conf: good.conf.map((c) => Math.min(1, c + 0.25)), y: good.y };
  const entries = compareEntries([
    { source: 'good.json', document: documentOf([modelOf('good', good)]) },
    { source: 'over.json', document: documentOf([modelOf('over', over)], 'judge') },
  ]);

  test('B clearly worse calibrated: ECE difference positive, its interval above 0, significant after Holm', () => {
    const c = compareReports(entries, { B: 400, metrics: ['ece', 'brier', 'auroc'] });
    const d = c.pairs[0].metrics.ece!.sem1!;
    expect(d.difference).toBeGreaterThan(0.1);
    expect(d.interval[0]).toBeGreaterThan(0);
    expect(d.interval[0]).toBeLessThanOrEqual(d.interval[1]);
    expect(d.p_adjusted).toBeLessThan(0.05);
    expect(d.p_adjusted).toBeGreaterThanOrEqual(d.p);
    // The same outcomes: no accuracy difference, and the test finds none.
    expect(c.pairs[0].metrics.accuracy).toMatchObject({ difference: 0, interval: [0, 0], p: 1 });
    expect(c.pairs[0].metrics.brier!.sem1!.difference).toBeGreaterThan(0);
  });

  test("the ECE's interval and p are the headline inversion's, joined by Bonferroni; other metrics keep the bootstrap", () => {
    const c = compareReports(entries, { B: 200, metrics: ['ece', 'brier'] });
    expect(c.ece_method).toBe('consistency-inversion-bonferroni');
    expect(c.method).toBe('paired-bootstrap-basic');
    const ia = eceInference(good.conf, good.y, { level: 0.975 }).interval;
    const ib = eceInference(over.conf, over.y, { level: 0.975 }).interval;
    const d = c.pairs[0].metrics.ece!.sem1!;
    expect(d.interval).toEqual([ib[0] - ia[1], ib[1] - ia[0]]);
    expect(d.difference).toBe(eceEqualWidth(over.conf, over.y) - eceEqualWidth(good.conf, good.y));
    const direct = eceDifference(eceLevelIntervals(good.conf, good.y), eceLevelIntervals(over.conf, over.y));
    expect(d.p).toBe(direct.p);
    // Brier keeps the paired bootstrap's basic interval, which holds its point difference.
    const brier = c.pairs[0].metrics.brier!.sem1!;
    expect(brier.interval[0]).toBeLessThanOrEqual(brier.difference);
    expect(brier.interval[1]).toBeGreaterThanOrEqual(brier.difference);
  });

  test('the reversed pair has the opposite difference and mirrored interval', () => {
    const ab = compareReports(entries, { B: 200, metrics: ['ece'] }).pairs[0].metrics.ece!.sem1!;
    const ba = compareReports([entries[1], entries[0]], { B: 200, metrics: ['ece'] }).pairs[0].metrics.ece!.sem1!;
    expect(ba.difference).toBeCloseTo(-ab.difference, 12);
    expect(ba.interval[0]).toBeCloseTo(-ab.interval[1], 12);
    expect(ba.interval[1]).toBeCloseTo(-ab.interval[0], 12);
  });

  test('settings that differ are listed and a comparison across clusterers says so', () => {
    const c = compareReports(entries, { B: 60, metrics: ['ece'] });
    expect(c.pairs[0].settings_differ).toEqual([{ setting: 'clustering', a: 'exact', b: 'judge' }]);
    expect(c.pairs[0].warnings[0]).toMatch(/good was clustered by exact and over by judge/);
  });

  test('Holm families: per metric, every pair × signal; three entries make three pairs', () => {
    const third = { source: 'third.json', document: documentOf([modelOf('third', drawRows(N, 0.1, 12))]) };
    const three = compareEntries([{ source: 'good.json', document: entries[0].document }, { source: 'over.json', document: entries[1].document }, third]);
    const c = compareReports(three, { B: 60, metrics: ['ece', 'auroc'] });
    expect(c.pairs.map((p) => [p.a, p.b])).toEqual([['good', 'over'], ['good', 'third'], ['over', 'third']]);
    const signals = c.pairs[0].signals.length;
    expect(signals).toBeGreaterThanOrEqual(3);
    expect(c.family_size).toEqual({ accuracy: 3, ece: 3 * signals, auroc: 3 * signals });
    const ps = c.pairs.flatMap((p) => Object.values(p.metrics.ece!).map((d) => d!));
    expect(holmAdjust(ps.map((d) => d.p))).toEqual(ps.map((d) => d.p_adjusted));
  });

  test('Markdown and LaTeX: what differs first, then one row per metric and signal plus accuracy', () => {
    const c = compareReports(entries, { B: 60, metrics: ['ece', 'auroc'] });
    const rows = 1 + 2 * c.pairs[0].signals.length;
    expect(comparisonTable(c).rows).toHaveLength(rows);
    const md = comparisonMarkdown(c).split('\n');
    expect(md[0]).toBe(`good vs over: ${N} shared questions`);
    expect(md[1]).toBe('- settings differ: clustering: exact vs judge');
    expect(md.filter((l) => l.startsWith('| over − good |'))).toHaveLength(rows);
    const tex = comparisonLatex(c);
    expect(tex).toMatch(/\\caption\{good vs over: 400 shared questions settings differ: clustering: exact vs judge/);
    const body = tex.slice(tex.indexOf('\\midrule') + 8, tex.indexOf('\\bottomrule')).trim().split('\n');
    expect(body).toHaveLength(rows);
  });
});
