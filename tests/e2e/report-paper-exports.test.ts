/**
 * Exports for a paper (issue 25): the report's table laid out signals × metrics with a column
 * choice, one interval per ECE cell and a caption that says what it is; the classroom's charts
 * saved as SVG and PNG like the report's.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { openHome } from './report-fixture';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('the table for a paper: a row per signal, the chosen columns, one interval per ECE cell, saved as LaTeX and Markdown with its caption', async () => {
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  const panel = page.locator('[data-paper-table]');
  await panel.locator('summary').click();
  // The fold-out's inside loads when first opened.
  await panel.locator('[data-table="paper"] thead th').first().waitFor({ timeout: 60_000 });
  const header = () => panel.locator('[data-table="paper"] thead th').allTextContents();
  expect(await header()).toEqual(['Model', 'Signal', 'ECE [95% interval]', 'Calibration test p', 'Brier', 'AUROC']);
  // A column choice.
  await panel.locator('[data-paper-column="brier"]').uncheck();
  await panel.locator('[data-paper-column="aurc"]').check();
  expect(await header()).toEqual(['Model', 'Signal', 'ECE [95% interval]', 'Calibration test p', 'AUROC', 'AURC']);
  const cells = await panel.locator('[data-table="paper"] tbody tr').first().locator('td').allTextContents();
  expect(cells[2]).toMatch(/^\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]$/);
  const caption = (await panel.locator('[data-paper-caption]').textContent())!;
  expect(caption).toMatch(/95% interval for the population ECE obtained by inverting a test of calibration/);
  await screenshot(page, 'paper-table-1280');

  const [tex] = await Promise.all([page.waitForEvent('download'), panel.locator('[data-paper-save="tex"]').click()]);
  const latex = readFileSync((await tex.path())!, 'utf8');
  expect(latex.match(/\\begin\{tabular\}/g)).toHaveLength(1);
  expect(latex).toContain('\\begin{tabular}{llrrrr}');
  expect(latex).toContain('95\\% interval for the population ECE');
  expect(latex).toContain(cells[2]);
  const [md] = await Promise.all([page.waitForEvent('download'), panel.locator('[data-paper-save="md"]').click()]);
  const markdown = readFileSync((await md.path())!, 'utf8');
  expect(markdown.trim().split('\n').at(-1)).toBe(`Table: ${caption}`);
  // A row per model instead.
  await panel.locator('[data-control="paper-layout-models"]').check();
  expect((await header())[0]).toBe('Model');
  expect(await panel.locator('[data-table="paper"] tbody tr').count()).toBe(2);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('the classroom charts offer SVG and PNG like the report’s, and the SVG stands alone', async () => {
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/classroom`);
  const charts = page.locator('[data-page="classroom"] [data-chart]');
  await charts.first().waitFor({ timeout: 60_000 });
  const n = await charts.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    expect(await charts.nth(i).locator('button[data-export="svg"]').count()).toBe(1);
    expect(await charts.nth(i).locator('button[data-export="png"]').count()).toBe(1);
  }
  const chart = charts.first();
  const [svg] = await Promise.all([page.waitForEvent('download'), chart.locator('button[data-export="svg"]').click()]);
  const text = readFileSync((await svg.path())!, 'utf8');
  const parsed = await page.evaluate((t) => {
    const d = new DOMParser().parseFromString(t, 'image/svg+xml');
    return { error: d.getElementsByTagName('parsererror').length, root: d.documentElement.nodeName, first: d.documentElement.querySelector(':scope > text')?.textContent };
  }, text);
  expect(parsed).toEqual({ error: 0, root: 'svg', first: (await chart.locator('.chart-title').textContent())!.trim() });
  expect(text).not.toContain('var(--');
  const [png] = await Promise.all([page.waitForEvent('download'), chart.locator('button[data-export="png"]').click()]);
  expect([...readFileSync((await png.path())!).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
