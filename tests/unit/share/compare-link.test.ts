import { describe, expect, test } from 'vitest';
import { deflateSync, strToU8 } from 'fflate';
import { base64urlEncode } from '../../../src/share/codec';
import { COMPARE_SHARE_ROUTE, decodeCompareLink, makeCompareLink } from '../../../src/share/compare-link';
import { compareEntries } from '../../../src/pipeline/report-alignment';
import { compareReports } from '../../../src/pipeline/report-comparison';
import { leaderboard } from '../../../src/pipeline/leaderboard';
import { sampleReport } from './report-fixture';
import { chartModels, linkChartModels } from '../../../src/ui/compare/chart-models';

const BASE = 'http://127.0.0.1:5173/';
const payloadOf = (url: string) => url.slice(url.indexOf(COMPARE_SHARE_ROUTE) + COMPARE_SHARE_ROUTE.length);
const pack = (value: unknown) => base64urlEncode(deflateSync(strToU8(JSON.stringify(value))));

describe('comparison and leaderboard links', () => {
  const doc = sampleReport({ questions: 10, samples: false });
  const entries = compareEntries([{ source: 'r.json', document: doc }]);
  const comparison = compareReports(entries, { B: 30 });
  const board = leaderboard(entries, 'sem1', { B: 30 });

  test('a comparison and a leaderboard come back as they went, NaN included', () => {
    // The fixture's stored AUROC is NaN, so an undefined statistic travels.
    expect(Number.isNaN(board.entries[0].auroc)).toBe(true);
    for (const shared of [{ kind: 'comparison', value: comparison }, { kind: 'leaderboard', value: board }] as const) {
      const link = makeCompareLink(shared, `${BASE}#/compare`);
      expect(link.ok).toBe(true);
      if (!link.ok) return;
      expect(link.value.url.startsWith(`${BASE}${COMPARE_SHARE_ROUTE}`)).toBe(true);
      expect(decodeCompareLink(payloadOf(link.value.url))).toEqual({ ok: true, value: shared });
    }
  });

  test("a comparison's charts travel in its link, rounded and thinned, and come back as they went", () => {
    const big = compareEntries([{ source: 'big.json', document: sampleReport({ questions: 400, samples: false }) }]);
    const charts = linkChartModels(big);
    const full = chartModels(big);
    const signals = Object.keys(full[0].signals);
    expect(signals.length).toBeGreaterThan(0);
    for (const s of signals as (keyof typeof full[0]['signals'])[]) {
      // At most four points per column of the 25 a link keeps; every point of the full curve on the page.
      expect(charts[0].signals[s]!.points.length).toBeLessThanOrEqual(100);
      expect(full[0].signals[s]!.points.length).toBe(400);
      expect(charts[0].signals[s]!.bins.map((b) => b.count)).toEqual(full[0].signals[s]!.bins.map((b) => b.count));
    }
    const shared = { kind: 'comparison' as const, value: compareReports(big, { B: 30 }), charts };
    const link = makeCompareLink(shared, BASE);
    expect(link.ok && link.value.charts).toBe(true);
    if (link.ok) expect(decodeCompareLink(payloadOf(link.value.url))).toEqual({ ok: true, value: shared });
  });

  test('when the charts do not fit, the link carries the numbers alone and says so', () => {
    const shared = { kind: 'comparison' as const, value: comparison, charts: linkChartModels(entries) };
    const numbersOnly = makeCompareLink({ kind: 'comparison', value: comparison }, BASE);
    const withCharts = makeCompareLink(shared, BASE);
    expect(numbersOnly.ok && withCharts.ok).toBe(true);
    if (!numbersOnly.ok || !withCharts.ok) return;
    expect(withCharts.value.length).toBeGreaterThan(numbersOnly.value.length);
    const squeezed = makeCompareLink(shared, BASE, numbersOnly.value.length);
    expect(squeezed).toEqual({ ok: true, value: { url: numbersOnly.value.url, length: numbersOnly.value.length, charts: false } });
    const bad = structuredClone(shared);
    bad.charts[0].signals = { sem1: { bins: [{ lo: 0, hi: 0.1, count: -3, meanConfidence: 0.05, accuracy: 0 }], points: [] } };
    const r = decodeCompareLink(pack(bad));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/at charts\.0\.signals\.sem1\.bins\.0\.count/);
  });

  test('a link over the limit is refused with the way out named', () => {
    const link = makeCompareLink({ kind: 'leaderboard', value: board }, BASE, 100);
    expect(link.ok).toBe(false);
    if (!link.ok) expect(link.error.message).toMatch(/too large for a link .* Download its HTML page/);
  });

  test('crafted links are refused with a message naming what is wrong', () => {
    const refused = (payload: string) => {
      const r = decodeCompareLink(payload);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.error.message;
    };
    expect(refused('')).toMatch(/empty/);
    expect(refused('not*base64')).toMatch(/damaged/);
    expect(refused(pack({ kind: 'report', value: {} }))).toMatch(/not a comparison or leaderboard .* at kind/);
    const long = structuredClone(board);
    long.entries[0].name = 'x'.repeat(501);
    expect(refused(pack({ kind: 'leaderboard', value: long }))).toMatch(/at value\.entries\.0\.name/);
    expect(refused(pack({ kind: 'comparison', value: { ...comparison, correction: 'bonferroni' } }))).toMatch(/at value\.correction/);
    // A deflate bomb: 5 MB of spaces inflates past the bound and is refused before parsing.
    expect(refused(base64urlEncode(deflateSync(new Uint8Array(5 * 1024 * 1024).fill(32))))).toMatch(/unpacks to more than 4 MB/);
  });
});
