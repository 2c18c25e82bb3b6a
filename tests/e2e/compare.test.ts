/**
 * Compare and Leaderboard (issue 28): two reports of models whose true calibration is known
 * (compare-fixture.ts: population ECE = the overconfidence) compare with the right sign and an
 * interval that covers the known difference; the overlaid charts key every colour they draw; five
 * reports rank in their known order and download as CSV, Markdown, LaTeX and an HTML page that
 * keeps a hostile name as text.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot, widthAt } from './chromium';
import { chartColours, missingFromLegend } from './chart-colours';
import { reportFile, syntheticReport } from './compare-fixture';
import { LEADERBOARD_CSV_FIELDS } from '../../src/pipeline/leaderboard-export';
import type { Leaderboard } from '../../src/pipeline/leaderboard';
import { makeCompareLink } from '../../src/share/compare-link';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

// Population ECE 0 against 0.4 on the same 300 questions: the known difference B − A is +0.4.
const calibrated = syntheticReport('calibrated', 0, 1);
const overconfident = syntheticReport('overconfident', 0.4, 2);

async function chooseFiles(page: Page, route: string, files: ReturnType<typeof reportFile>[], action: string) {
  await page.goto(`${inject('appUrl')}#/${route}`);
  await page.locator('input[data-control="compare-files"]').setInputFiles(files);
  await page.locator('[data-action="compare-go"]', { hasText: action }).click();
}

test('two reports compare with the right sign, an interval covering the known difference, and what differs first', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await chooseFiles(page, 'compare', [reportFile('calibrated.json', calibrated), reportFile('overconfident.json', overconfident)], 'Compare');
  const table = page.locator('[data-table="differences"][data-pair="0"]');
  await table.waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-pair-head="0"] h3').textContent()).toBe('calibrated and overconfident');
  expect(await page.locator('[data-shared]').getAttribute('data-shared')).toBe('300');
  expect(await page.locator('[data-settings-same]').count()).toBe(1);
  // What differs comes before any number.
  const order = await page.locator('[data-compare-differs], [data-compare-differences]').evaluateAll((els) => els.map((e) => (e.hasAttribute('data-compare-differs') ? 'differs' : 'numbers')));
  expect(order).toEqual(['differs', 'numbers']);
  for (const signal of ['sem1', 'sem2', 'verbalized']) {
    const row = table.locator(`tr[data-metric="ece"][data-signal="${signal}"]`);
    const [d, lo, hi] = await Promise.all(['data-difference', 'data-low', 'data-high'].map(async (a) => Number(await row.getAttribute(a))));
    expect(d, signal).toBeGreaterThan(0);
    expect(lo, signal).toBeLessThanOrEqual(0.4);
    expect(hi, signal).toBeGreaterThanOrEqual(0.4);
  }
  // Accuracy: the same population accuracy, so the interval covers 0.
  const acc = table.locator('tr[data-metric="accuracy"]');
  expect(Number(await acc.getAttribute('data-low'))).toBeLessThanOrEqual(0);
  expect(Number(await acc.getAttribute('data-high'))).toBeGreaterThanOrEqual(0);
  expect(await page.locator('[data-compare-method]').textContent()).toMatch(/Holm's method within each metric across every pair × signal/);

  // Overlaid: one reliability diagram with a layer per model, each colour in the legend; a layer hides.
  const reliability = page.locator('[data-compare-charts] [data-chart="reliability"]');
  expect(await reliability.locator('g.series').count()).toBe(2);
  for (const chart of ['reliability', 'risk-coverage']) {
    const c = await chartColours(page.locator(`[data-compare-charts] [data-chart="${chart}"]`).first());
    expect(missingFromLegend(c), `${chart}: legend ${c.legend.join(' ')}; drawn ${JSON.stringify(c.drawn)}`).toEqual([]);
  }
  await screenshot(page, 'compare-1280-light');
  await page.locator('input[data-layer="overconfident"]').uncheck();
  expect(await reliability.locator('g.series').count()).toBe(1);
  await page.locator('input[data-layer="overconfident"]').check();
  expect(await page.locator('[data-table="sem-gap"] tbody tr').count()).toBe(2);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await screenshot(page, 'compare-390-dark');

  // Shared as a link: the same numbers, read back from the link alone.
  const sem2 = await table.locator('tr[data-metric="ece"][data-signal="sem2"]').getAttribute('data-difference');
  await page.locator('[data-action="share-compare"]').click();
  const url = await page.locator('input[data-share-link]').inputValue();
  expect(url).toContain('#/shared-compare/');
  expect(await page.locator('[data-share-message]').textContent()).toMatch(/carries the numbers and the charts/);
  await page.goto(url);
  await page.locator('[data-shared-compare-banner]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-table="differences"] tr[data-metric="ece"][data-signal="sem2"]').getAttribute('data-difference')).toBe(sem2);
  // The charts came in the link: the same layers, drawn from its bins and thinned curves, every colour keyed.
  expect(await page.locator('[data-shared-compare-banner]').textContent()).toMatch(/charts drawn from the bins and curves it carries/);
  const sharedReliability = page.locator('[data-compare-charts] [data-chart="reliability"]');
  expect(await sharedReliability.locator('g.series').count()).toBe(2);
  for (const chart of ['reliability', 'risk-coverage']) {
    const c = await chartColours(page.locator(`[data-compare-charts] [data-chart="${chart}"]`).first());
    expect(missingFromLegend(c), `shared ${chart}: legend ${c.legend.join(' ')}; drawn ${JSON.stringify(c.drawn)}`).toEqual([]);
  }
  expect(await page.locator('[data-table="sem-gap"] tbody tr').count()).toBe(2);
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await screenshot(page, 'compare-shared-390-dark');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('a crafted comparison link is refused with a message, and its text never becomes markup', async () => {
  const { page, context } = await openPage(browser);
  const board = { signal: 'sem2', entries: [{ name: '<img src=x onerror="window.__pwned=1">', questions: 1, ece: 0.1, ece_interval: null, accuracy: 1, brier: 0, auroc: null, p_first: 1, rank: 1, rank_interval: [1, 1] }], skipped: [], paired: true, B: 1, seed: 7 };
  const link = makeCompareLink({ kind: 'leaderboard', value: board as unknown as Leaderboard }, inject('appUrl'));
  if (!link.ok) throw new Error(link.error.message);
  await page.goto(link.value.url);
  await page.locator('[data-table="leaderboard"] tbody tr').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-table="leaderboard"] tbody th').textContent()).toBe(board.entries[0].name);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await page.goto(`${inject('appUrl')}#/shared-compare/${'A'.repeat(40)}`);
  expect(await page.locator('[data-shared-compare-error]').textContent()).toMatch(/cannot be opened/);
  await context.close();
});

test('a comparison across clusterers says so and lists the settings that differ', async () => {
  const other = syntheticReport('embedded', 0.1, 3);
  other.settings.clustering = { method: 'embedding', detail: 'all-MiniLM-L6-v2' };
  other.settings.samples = 20;
  const { page, context } = await openPage(browser);
  await chooseFiles(page, 'compare', [reportFile('calibrated.json', calibrated), reportFile('embedded.json', other)], 'Compare');
  await page.locator('[data-table="differences"]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-compare-warning]').textContent()).toMatch(/clustered by exact .* by embedding/);
  const settings = await page.locator('[data-table="settings-differ"] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-setting')));
  expect(settings).toEqual(['samples', 'clustering']);
  await context.close();
});

test('the leaderboard ranks five reports in their known order, sorts, and downloads CSV, Markdown, LaTeX and HTML', async () => {
  const docs = [0.35, 0, 0.45, 0.15, 0.25].map((d, i) => syntheticReport(`model-${d}`, d, 10 + i));
  // A hostile name stays text in the page and in the HTML file.
  docs[1].models[0].model = 'best <img src=x onerror="window.__pwned=1">';
  const { page, context, consoleErrors } = await openPage(browser);
  await chooseFiles(page, 'leaderboard', docs.map((d, i) => reportFile(`r${i}.json`, d)), 'Rank');
  const rows = page.locator('[data-table="leaderboard"] tbody tr');
  await rows.first().waitFor({ timeout: 60_000 });
  const names = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-entry')));
  expect(await names()).toEqual([docs[1].models[0].model, 'model-0.15', 'model-0.25', 'model-0.35', 'model-0.45']);
  const pFirst = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-p-first'))));
  expect(pFirst.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  // Sorting by ECE, highest first.
  await page.locator('button[data-sort="ece"]').click();
  await page.locator('button[data-sort="ece"]').click();
  expect((await names())[0]).toBe('model-0.45');
  await screenshot(page, 'leaderboard-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await screenshot(page, 'leaderboard-390-dark');

  const download = async (kind: string) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export-leaderboard="${kind}"]`).click()]);
    return readFileSync((await d.path())!, 'utf8');
  };
  const csv = await download('csv');
  expect(csv.split(/\r?\n/)[0]).toBe(LEADERBOARD_CSV_FIELDS.join(','));
  expect(csv.trim().split(/\r?\n/)).toHaveLength(6);
  expect(await download('markdown')).toMatch(/\| Rank \| Model \|/);
  expect(await download('latex')).toContain('\\begin{tabular}');
  const html = await download('html');
  expect(html).toContain('best &lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
  expect(html).not.toMatch(/<script|<img/i);
  await page.setContent(html);
  expect(await page.locator('tbody tr').count()).toBe(5);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('saved reports are chosen from this browser (read through the run worker), and a link preselects them', async () => {
  const { page, context, consoleErrors } = await openPage(browser);
  const ids: string[] = [];
  for (const [name, doc] of [['calibrated.json', calibrated], ['overconfident.json', overconfident]] as const) {
    await page.goto(`${inject('appUrl')}#/open`);
    await page.locator('input[data-control="report-file"]').setInputFiles(reportFile(name, doc));
    await page.locator('[data-action="save-local"]').click();
    ids.push((await page.locator('[data-saved]').getAttribute('data-saved'))!);
    await page.locator('button', { hasText: 'Open another report' }).click();
  }
  await page.goto(`${inject('appUrl')}#/compare?ids=${ids.join(',')}`);
  const shown = page.locator('[data-page="compare"]');
  await shown.locator(`tr[data-choice="${ids[1]}"]`).waitFor({ timeout: 30_000 });
  expect(await shown.locator('[data-table="choices"] input[type="checkbox"]:checked').count()).toBe(2);
  await shown.locator('button', { hasText: 'Choose none' }).click();
  expect(await shown.locator('[data-table="choices"] input[type="checkbox"]:checked').count()).toBe(0);
  await shown.locator('[data-action="choose-all"]').click();
  expect(await shown.locator('[data-table="choices"] input[type="checkbox"]:checked').count()).toBe(2);
  await shown.locator('[data-action="compare-go"]').click();
  const row = page.locator('[data-table="differences"] tr[data-metric="ece"][data-signal="sem2"]');
  await row.waitFor({ timeout: 60_000 });
  // Saved reports are listed newest first, so A is whichever the list puts first: B − A is +ECE gap or −.
  const head = await page.locator('[data-pair-head="0"] h3').textContent();
  expect(['calibrated and overconfident', 'overconfident and calibrated']).toContain(head);
  const sign = head!.startsWith('calibrated') ? 1 : -1;
  expect(sign * Number(await row.getAttribute('data-difference'))).toBeGreaterThan(0);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a folder of report files is ranked (its .json files; anything else in it is passed over)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'semece-board-'));
  [0.3, 0, 0.15].forEach((d, i) => writeFileSync(path.join(dir, `r${i}.json`), reportFile('', syntheticReport(`m${d}`, d, 20 + i)).buffer));
  writeFileSync(path.join(dir, 'notes.txt'), 'not a report');
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/leaderboard`);
  await page.locator('input[data-control="compare-folder"]').setInputFiles(dir);
  await page.locator('[data-action="compare-go"]').click();
  const rows = page.locator('[data-table="leaderboard"] tbody tr');
  await rows.first().waitFor({ timeout: 60_000 });
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-entry')))).toEqual(['m0', 'm0.15', 'm0.3']);
  expect(await page.locator('[data-picker-error]').count()).toBe(0);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
