/**
 * Export and share actions on every report view: the Home demo report's JSON download parses
 * with the importer to the numbers the page shows, the share link made there reopens them, and a
 * report opened from a file offers the same actions.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { demoDocument, openHome } from './report-fixture';
import { parseReport } from '../../src/formats/report-import';
import type { ReportDocument } from '../../src/model/report';
import { expectHeadlineNumbers } from './share-report-checks';

let browser: Browser;
const dir = mkdtempSync(path.join(tmpdir(), 'semece-actions-'));
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Every headline ECE the page shows, as `model:signal → value` read from the DOM. */
async function shownEces(page: Page): Promise<Record<string, number>> {
  const cells = await page.locator('table[data-table="headline"] td[data-ece]').evaluateAll((els) =>
    els.map((e) => [`${e.closest('tr')!.getAttribute('data-model')}:${e.getAttribute('data-ece')}`, Number(e.getAttribute('data-value'))] as const),
  );
  return Object.fromEntries(cells);
}

function documentEces(doc: ReportDocument): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of doc.models) for (const [s, metrics] of Object.entries(m.metrics.signals)) out[`${m.model}:${s}`] = metrics!.ece;
  return out;
}

test('Home: Download JSON parses to the numbers shown; the share link opens the same numbers; an opened file offers the actions too', async () => {
  const demo = demoDocument();
  const { page, context, consoleErrors, offLoopback } = await openHome(browser, inject('appUrl'));
  const actions = page.locator('[data-report] [data-report-actions]');
  expect(await actions.count()).toBe(1);
  for (const a of ['json', 'csv', 'html', 'share']) expect(await actions.locator(`[data-action="${a}"]`).isVisible()).toBe(true);
  // Every chart keeps its own SVG/PNG buttons.
  const charts = page.locator('[data-chart="reliability"]');
  expect(await charts.count()).toBe(demo.models.length);
  for (let i = 0; i < demo.models.length; i++) {
    expect(await charts.nth(i).locator('button[data-export="svg"]').count()).toBe(1);
    expect(await charts.nth(i).locator('button[data-export="png"]').count()).toBe(1);
  }

  const [download] = await Promise.all([page.waitForEvent('download'), actions.locator('[data-action="json"]').click()]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  expect(file.endsWith('.json')).toBe(true);
  const parsed = parseReport(readFileSync(file, 'utf8'));
  expect(parsed.ok, parsed.ok ? '' : parsed.error.message).toBe(true);
  if (!parsed.ok) return;
  const shown = await shownEces(page);
  expect(Object.keys(shown).length).toBeGreaterThanOrEqual(3 * demo.models.length);
  // The file holds exactly the numbers on screen, which are the pipeline's numbers for the demo.
  for (const [key, value] of Object.entries(shown)) expect(documentEces(parsed.value)[key], key).toBe(value);
  expect(parsed.value.models.map((m) => m.metrics.signals.sem1!.ece)).toEqual(demo.models.map((m) => m.metrics.signals.sem1!.ece));
  expect(parsed.value.models.map((m) => m.questions.map((q) => q.sem2))).toEqual(demo.models.map((m) => m.questions.map((q) => q.sem2)));
  await screenshot(page, 'report-actions-home');

  await actions.locator('[data-action="share"]').click();
  const link = await page.locator('[data-share-link]').inputValue();
  expect(link.startsWith(`${inject('appUrl')}#/shared/`)).toBe(true);
  const shared = await context.newPage();
  await shared.goto(link);
  await shared.locator('[data-shared-banner]').waitFor({ timeout: 60_000 });
  await expectHeadlineNumbers(shared, parsed.value);
  expect(await shownEces(shared)).toEqual(shown);
  // One set of actions on the shared page too (the view's own), not two.
  expect(await shared.locator('[data-report-actions]').count()).toBe(1);

  const opened = await context.newPage();
  await opened.goto(`${inject('appUrl')}#/open`);
  await opened.locator('input[data-control="report-file"]').setInputFiles(file);
  await opened.locator('[data-report] [data-report-actions]').waitFor({ timeout: 60_000 });
  expect(await shownEces(opened)).toEqual(shown);

  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('kept shared copies and saved opened files are listed on the Runs page, open with their actions, and can be deleted', async () => {
  const demo = demoDocument();
  const { page, context, consoleErrors, offLoopback } = await openHome(browser, inject('appUrl'));
  page.on('dialog', (d) => void d.accept());
  await page.locator('[data-action="share"]').click();
  const link = await page.locator('[data-share-link]').inputValue();
  await page.goto(link);
  await page.locator('[data-action="keep"]').click();
  const keptId = await page.locator('[data-kept]').getAttribute('data-kept');
  expect(keptId).toMatch(/^shared-/);

  // A report file saved from Open report.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-report-actions] [data-action="json"]').click()]);
  const file = path.join(dir, `kept-${download.suggestedFilename()}`);
  await download.saveAs(file);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles(file);
  await page.locator('[data-action="save-local"]').click();
  const savedId = await page.locator('[data-saved]').getAttribute('data-saved');
  expect(savedId).toMatch(/^opened-/);

  await page.goto(`${inject('appUrl')}#/runs`);
  const list = page.locator('[data-saved-reports]');
  await list.locator(`tr[data-saved-report="${savedId}"]`).waitFor({ timeout: 60_000 });
  expect(await list.locator('tbody tr').evaluateAll((els) => els.map((e) => e.getAttribute('data-saved-report')))).toEqual([savedId, keptId]);
  const keptRow = list.locator(`tr[data-saved-report="${keptId}"]`);
  expect(await keptRow.locator('th').textContent()).toBe(demo.title);
  expect(await keptRow.textContent()).toContain('kept from a share link');
  await screenshot(page, 'runs-saved-reports');

  await keptRow.getByRole('link', { name: 'Open' }).click();
  await page.waitForURL(new RegExp(`#/report/${keptId}`));
  await page.locator('[data-report] [data-report-actions]').waitFor({ timeout: 60_000 });
  expect(Number(await page.locator('tr[data-model] td[data-ece="sem1"]').first().getAttribute('data-value'))).toBe(demo.models[0].metrics.signals.sem1!.ece);

  await page.goto(`${inject('appUrl')}#/runs`);
  await list.locator(`tr[data-saved-report="${keptId}"] button`, { hasText: 'Delete' }).click();
  await expect.poll(() => list.locator(`tr[data-saved-report="${keptId}"]`).count()).toBe(0);
  expect(await list.locator(`tr[data-saved-report="${savedId}"]`).count()).toBe(1);
  await page.goto(`${inject('appUrl')}#/report/${keptId}`);
  await page.locator('h1', { hasText: 'No report here' }).waitFor();

  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('the headline table downloads as CSV, Markdown and LaTeX with the cells the page shows', async () => {
  const { page, context, consoleErrors, offLoopback } = await openHome(browser, inject('appUrl'));
  const doc = demoDocument();
  const shownFirstEce = (await page.locator('table[data-table="headline"] tr').nth(1).locator('td[data-ece="sem1"]').innerText()).split('\n')[0].trim();
  const files: Record<string, string> = {};
  for (const kind of ['CSV', 'Markdown', 'LaTeX']) {
    const download = page.waitForEvent('download');
    await page.locator('[data-headline-downloads]').getByRole('button', { name: kind, exact: true }).click();
    const d = await download;
    files[kind] = readFileSync((await d.path())!, 'utf8');
    expect(d.suggestedFilename()).toMatch(/-headline\.(csv|md|tex)$/);
  }
  expect(files.CSV.split('\r\n')[0]).toMatch(/^Model,Questions,Excluded,Accuracy,ECE Sem1,/);
  expect(files.CSV.split('\r\n')[0]).toContain('ECE Sem1 95% CI');
  expect(files.CSV.split('\r\n')[0]).toContain('Calibration p Sem1');
  // The interval each file carries is the one the page shows under the ECE, and the method is named.
  const shown = await page.locator('table[data-table="headline"] tr').nth(1).locator('[data-ece-interval="sem1"]').innerText();
  expect(shown).toMatch(/^\[\d\.\d{3}, \d\.\d{3}\]$/);
  for (const text of Object.values(files)) expect(text).toContain(shown);
  expect(await page.locator('[data-interval-method]').textContent()).toMatch(/consistency-inversion/);
  expect(files.CSV).toContain(doc.models[0].model);
  expect(files.Markdown).toContain(`| ${doc.models[0].model} |`);
  expect(files.LaTeX).toMatch(/\\toprule[\s\S]*\\bottomrule/);
  // The number the page shows is the number in each file.
  for (const text of Object.values(files)) expect(text).toContain(shownFirstEce);
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
