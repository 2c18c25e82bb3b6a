import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, screenshot, widthAt } from './chromium';
import { startRunThroughWizard } from './run-helpers';
import { capitalsCsv, capitalsMockQuestions, closeWithMock, launchWithMock, type Capital } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';

const CAPITALS: Capital[] = [
  ['France', 'Paris', { Paris: 1 }],
  ['Spain', 'Madrid', { Madrid: 0.8, Barcelona: 0.2 }],
  ['Italy', 'Rome', { Milan: 0.6, Rome: 0.4 }],
  ['Japan', 'Tokyo', { Tokyo: 0.9, Kyoto: 0.1 }],
  ['Canada', 'Ottawa', { Toronto: 0.5, Ottawa: 0.3, Montreal: 0.2 }],
  ['Australia', 'Canberra', { Sydney: 0.55, Canberra: 0.45 }],
];
const CSV = capitalsCsv(CAPITALS);

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({
    apiKey: 'mock-key',
    latencyMs: 10,
    questions: capitalsMockQuestions(CAPITALS),
  }));
});
afterAll(() => closeWithMock(browser, mock));

test('from a CSV file through the wizard to a report, then the run is listed on the Runs page — clean and offline', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const appUrl = inject('appUrl');
  const runId = await startRunThroughWizard(page, appUrl, {
    file: { name: 'capitals.csv', text: CSV },
    baseUrl: `${mock.url}/v1`,
    model: 'gpt-4o-mini',
    key: 'mock-key',
    n: 12,
    concurrency: 4,
    shots: 'run-wizard',
  });

  // The live page shows progress, then the link to the report.
  await page.getByRole('heading', { level: 1 }).waitFor();
  const reportLink = page.getByRole('link', { name: 'Open the report' });
  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 60_000 });
  // On failure this shows the page's own account of what stopped the run.
  expect(await page.locator('main').innerText()).not.toMatch(/The run stopped/);
  expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('done');
  expect(await page.getByTestId('samples-done').textContent()).toBe('72 / 72');
  await screenshot(page, 'run-page-done');
  // Every question got exactly its 12 samples from the mock (the connection test asked one unmatched question).
  const served = mock.stats().served;
  for (let i = 1; i <= CAPITALS.length; i++) expect(served[`c${i}`]).toBe(12);

  await reportLink.click();
  await page.waitForURL(new RegExp(`#/report/${runId}`));
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  const headline = page.locator('[data-table="headline"] tbody tr');
  await headline.first().waitFor();
  const cells = await headline.first().locator('th, td').allTextContents();
  expect(cells[0]).toBe('openai/gpt-4o-mini');
  expect(Number(cells[1])).toBe(CAPITALS.length);
  await screenshot(page, 'run-report');

  await page.goto(`${appUrl}#/runs`);
  const row = page.locator(`tr[data-run-id="${runId}"]`);
  await row.waitFor();
  expect(await row.locator('.status').textContent()).toBe('done');
  await page.getByTestId('storage-used').waitFor();
  await screenshot(page, 'runs-page');

  // The pages in dark mode, for a look at their contrast.
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'runs-page-dark');
  await page.goto(`${appUrl}#/run/${encodeURIComponent(runId)}`);
  await page.getByRole('link', { name: 'Open the report' }).waitFor();
  await screenshot(page, 'run-page-dark');
  // On a phone the run page and the runs list scroll no sideways (wide tables scroll in their own boxes).
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await screenshot(page, 'run-page-390-dark');
  await page.goto(`${appUrl}#/runs`);
  await row.waitFor();
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await page.goto(`${appUrl}#/run/${encodeURIComponent(runId)}`);
  await page.getByRole('link', { name: 'Open the report' }).waitFor();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${appUrl}#/new`);
  await page.getByLabel('A file of my own').check();
  await screenshot(page, 'run-wizard-dark');

  // Deleting the run removes it from the list (after the browser's confirmation).
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${appUrl}#/runs`);
  await row.waitFor();
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: /^Delete run/ }).click();
  await row.waitFor({ state: 'detached' });
  expect(await page.getByText('No runs yet.').isVisible()).toBe(true);

  // (c) nothing left loopback; no console error anywhere on the way.
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a run whose answers are grouped by the in-browser embedding model ends with a report', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await startRunThroughWizard(page, inject('appUrl'), {
    file: { name: 'capitals.csv', text: CSV },
    baseUrl: `${mock.url}/v1`,
    model: 'gpt-4o-mini',
    key: 'mock-key',
    n: 6,
    concurrency: 4,
    embeddingModel: 'tiny-embedder',
  });
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 90_000 });
  expect(await page.locator('.stages li:nth-child(3) .count').textContent()).toBe(`${CAPITALS.length} / ${CAPITALS.length} answer sets`);
  await screenshot(page, 'run-embedding-done');
  // Every question was clustered (none excluded): the report counts all of them.
  await page.getByRole('link', { name: 'Open the report' }).click();
  const headline = page.locator('[data-table="headline"] tbody tr').first();
  await headline.waitFor({ timeout: 60_000 });
  const cells = await headline.locator('th, td').allTextContents();
  expect(Number(cells[1])).toBe(CAPITALS.length);
  expect(Number(cells[2])).toBe(0);
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
