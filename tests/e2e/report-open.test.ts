import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { demoDocument } from './report-fixture';
import { reportToJson } from '../../src/formats/report-export';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('#/open renders a report file the same as the home page, and text stays text', async () => {
  const doc = demoDocument();
  // A hostile label must appear as text, not as markup.
  doc.title = 'Opened <img src=x onerror="window.__pwned=1"> report';
  doc.demo = false;
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('h1', { hasText: 'Open a report' }).waitFor();
  await screenshot(page, 'open-report');
  await page.locator('input[data-control="report-file"]').setInputFiles({
    name: 'report.json',
    mimeType: 'application/json',
    buffer: Buffer.from(reportToJson(doc)),
  });
  await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached' });
  expect(await page.locator('[data-report] h1.report-title').textContent()).toBe(doc.title);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('[data-demo-label]').count()).toBe(0);
  const ece = await page.locator('[data-table="headline"] tbody tr').first().locator('td[data-ece="sem1"]').getAttribute('data-value');
  expect(Number(ece)).toBe(doc.models[0].metrics.signals.sem1!.ece);
  await screenshot(page, 'open-report-loaded');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('#/open refuses a file that is not a report with a message naming the problem', async () => {
  const { page, context } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"something-else"}'),
  });
  const error = page.locator('[data-open-error]');
  await error.waitFor();
  expect(await error.textContent()).toContain('notes.json');
  expect(await error.textContent()).toContain('format');
  await screenshot(page, 'open-report-refused');
  await context.close();
});

test('#/report/<id> with no saved report says so', async () => {
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/report/does-not-exist`);
  await page.locator('h1', { hasText: 'No report here' }).waitFor();
  await screenshot(page, 'saved-report-missing');
  expect(consoleErrors).toEqual([]);
  await context.close();
});
