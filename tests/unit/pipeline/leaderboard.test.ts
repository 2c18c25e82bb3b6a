/**
 * The leaderboard (pipeline/leaderboard.ts) ranks five reports by ECE with each one's own
 * interval and the uncertainty of the ranking, and exports to CSV, Markdown and LaTeX
 * (pipeline/leaderboard-export.ts), each read back.
 */
import { describe, expect, test } from 'vitest';
import { compareEntries } from '../../../src/pipeline/report-alignment';
import { leaderboard } from '../../../src/pipeline/leaderboard';
import { LEADERBOARD_CSV_FIELDS, leaderboardCsv, leaderboardLatex, leaderboardMarkdown } from '../../../src/pipeline/leaderboard-export';
import { documentOf, drawRows, modelOf } from './compare-reports';

const OFFSETS = [0.2, 0, 0.3, 0.1, 0.4];
// Shuffled on purpose: the ranking, not the input order, puts them in order.
const reports = OFFSETS.map((o, k) => ({ source: `r${k}.json`, document: documentOf([modelOf(`off-${o}`, drawRows(600, o, 100 + k))]) }));

describe('leaderboard of five reports', () => {
  const lb = leaderboard(compareEntries(reports), 'sem1', { B: 300 });

  test('ranked by ECE, lowest first, with each report’s own interval and the ranking’s uncertainty', () => {
    expect(lb.entries.map((e) => e.name)).toEqual(['off-0', 'off-0.1', 'off-0.2', 'off-0.3', 'off-0.4']);
    expect(lb.entries.map((e) => e.rank)).toEqual([1, 2, 3, 4, 5]);
    for (const [i, e] of lb.entries.entries()) {
      const m = reports[OFFSETS.indexOf(Number(e.name.slice(4)))].document.models[0].metrics;
      expect(e.ece).toBe(m.signals.sem1!.ece);
      expect(e.ece_interval).toEqual(m.eceInference!.sem1!.interval);
      expect(e.accuracy).toBe(m.accuracy);
      expect(e.questions).toBe(600);
      expect(e.rank_interval[0]).toBeLessThanOrEqual(e.rank);
      expect(e.rank_interval[1]).toBeGreaterThanOrEqual(e.rank);
      if (i > 0) expect(e.p_first).toBeLessThanOrEqual(lb.entries[0].p_first);
    }
    expect(lb.entries.reduce((s, e) => s + e.p_first, 0)).toBeCloseTo(1, 12);
    expect(lb.entries[0].p_first).toBeGreaterThan(0.5);
    expect(lb.entries[4].rank_interval).toEqual([5, 5]);
    // Different draws of questions' outcomes but the same ids and texts: paired replicates.
    expect(lb.paired).toBe(true);
  });

  test('CSV: the header, then one row per entry in rank order, numbers at full precision', () => {
    const lines = leaderboardCsv(lb).split('\r\n');
    expect(lines[0]).toBe(LEADERBOARD_CSV_FIELDS.join(','));
    expect(lines).toHaveLength(6);
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[1])).toEqual(lb.entries.map((e) => e.name));
    expect(rows.map((r) => Number(r[3]))).toEqual(lb.entries.map((e) => e.ece));
    expect(rows.map((r) => Number(r[9]))).toEqual(lb.entries.map((e) => e.p_first));
  });

  test('Markdown: a table of header, alignment and five rows, each with every column', () => {
    const lines = leaderboardMarkdown(lb).trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    const cells = (l: string) => l.slice(2, -2).split(' | ');
    const width = cells(lines[0]).length;
    for (const l of lines) expect(cells(l)).toHaveLength(width);
    expect(cells(lines[2]).slice(0, 2)).toEqual(['1', 'off-0']);
  });

  test('LaTeX: a booktabs tabular with five rows in rank order', () => {
    const tex = leaderboardLatex(lb);
    expect(tex).toContain('\\begin{tabular}{llrrrrrrrr}');
    const body = tex.slice(tex.indexOf('\\midrule') + 8, tex.indexOf('\\bottomrule')).trim().split('\n');
    expect(body).toHaveLength(5);
    expect(body.map((l) => l.split(' & ')[1])).toEqual(lb.entries.map((e) => e.name));
    for (const l of body) expect(l.endsWith('\\\\')).toBe(true);
  });

  test('unshared questions: each entry is resampled on its own questions', () => {
    const other = { source: 'x.json', document: documentOf([modelOf('other', { ...drawRows(50, 0, 7), ids: Array.from({ length: 50 }, (_, i) => `z${i}`) })]) };
    const lb2 = leaderboard(compareEntries([reports[0], other]), 'sem1', { B: 100 });
    expect(lb2.paired).toBe(false);
    expect(lb2.entries).toHaveLength(2);
  });
});
