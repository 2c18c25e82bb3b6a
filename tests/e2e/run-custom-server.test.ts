/**
 * A custom OpenAI-compatible server as its own provider choice: the wizard shows what each
 * provider can do, the custom server's samples per request are "probed at run time", the
 * estimate gives requests as a range and no price, and the run finds out that this server
 * returns one reply per request (it ignores n, like the loopback mock with maxN 1): every
 * question gets exactly n samples, one request each after the probe, with no batch panel.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, screenshot, widthAt } from './chromium';
import { capitalsCsv, capitalsMockQuestions, closeWithMock, launchWithMock, type Capital } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';

const CAPITALS: Capital[] = [
  ['France', 'Paris', { Paris: 1 }],
  ['Spain', 'Madrid', { Madrid: 0.8, Barcelona: 0.2 }],
  ['Italy', 'Rome', { Milan: 0.6, Rome: 0.4 }],
];
const N = 4;

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  // A server that needs no key and silently returns one choice whatever n asks for.
  ({ browser, mock } = await launchWithMock({ apiKey: null, latencyMs: 150, maxN: { openai: 1 }, questions: capitalsMockQuestions(CAPITALS) }));
});
afterAll(() => closeWithMock(browser, mock));

const next = (page: import('playwright-core').Page) => page.getByRole('button', { name: /^Next:/ }).click();

test('another OpenAI-compatible server: its capabilities and estimate in the wizard, n per request probed in the run', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByLabel('A file of my own').check();
  await page.getByLabel('Dataset file').setInputFiles({ name: 'capitals.csv', mimeType: 'text/csv', buffer: Buffer.from(capitalsCsv(CAPITALS)) });
  await page.getByText(/questions ready/).waitFor();
  await next(page);

  // A preset says what it can do.
  const caps = page.getByRole('group', { name: 'Model 1' }).locator('dl.caps');
  const line = async (key: string) => (await caps.locator(`[data-capability="${key}"] dd`).textContent())?.trim();
  expect(await line('samplesPerRequest')).toBe('several (n up to 128)');
  expect(await line('batch')).toBe('yes');
  expect(await line('price')).toBe('yes');
  // Pointed at another server, the OpenAI preset says whose limits, prices and batch service still apply.
  await page.getByLabel('Base URL').fill(`${mock.url}/v1`);
  const elsewhere = page.getByRole('group', { name: 'Model 1' }).locator('[data-testid$="-elsewhere"]');
  await elsewhere.waitFor();
  expect(await elsewhere.textContent()).toMatch(/^This address is not OpenAI's own/);
  await page.getByLabel('Provider', { exact: true }).selectOption('ollama');
  expect(await elsewhere.count()).toBe(0);
  expect(await line('samplesPerRequest')).toBe('1 (one request per sample)');
  expect(await line('price')).toBe('free (local)');

  // The custom server: no address until given, nothing known until probed.
  await page.getByLabel('Provider', { exact: true }).selectOption({ label: 'Another OpenAI-compatible server' });
  expect(await page.getByLabel('Base URL').inputValue()).toBe('');
  expect(await caps.getAttribute('aria-label')).toBe('What Another OpenAI-compatible server can do');
  expect(await line('samplesPerRequest')).toMatch(/^probed at run time/);
  expect(await line('batch')).toBe('no');
  expect(await line('price')).toMatch(/^no/);
  expect(await line('logprobs')).toMatch(/^unknown/);
  await page.getByLabel('Model id').fill('my-model');
  await page.getByRole('button', { name: /^Next:/ }).waitFor();
  expect(await page.getByText(/Model 1: enter the base URL of the server/).count()).toBe(1);
  await page.getByLabel('Base URL').fill(`${mock.url}/v1`);
  expect(await page.getByText('API key (optional)', { exact: true }).count()).toBe(1);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByText(/^Connected in/).waitFor({ timeout: 60_000 });
  await screenshot(page, 'run-custom-server-models');
  await next(page);

  await page.getByLabel('Samples per question (n)').fill(String(N));
  await page.getByLabel('Requests at once (per model)').fill('4');
  await next(page);

  // The estimate: from n per request (3 requests) to one per sample (12), cost unknown.
  const row = page.locator('table tbody tr').first();
  await row.waitFor();
  const cells = await row.locator('th, td').allTextContents();
  // Named as people read it, never "custom/my-model" (the preset id stays the report's and the prices' key).
  const shown = 'my-model on the OpenAI-compatible server';
  expect(cells[0]).toBe(shown);
  expect(cells[1]).toBe(`${CAPITALS.length} – ${CAPITALS.length * N}`);
  expect(cells[4]).toMatch(/^unknown/);
  await page.getByTestId('probed-estimate').waitFor();
  await page.getByText('Prices used for the cost (USD per million tokens)').click();
  const prices = page.locator('details', { hasText: 'Prices used for the cost' });
  expect(await prices.locator('tbody th').allTextContents()).toEqual([shown]);
  expect(await prices.getByLabel(`Input price of ${shown}`).count()).toBe(1);
  expect(await prices.getByLabel(`Output price of ${shown}`).count()).toBe(1);
  expect(await page.locator('main').innerText()).not.toContain('custom/');
  await screenshot(page, 'run-custom-server-review');
  // The longer names wrap: on a phone, in the dark theme too, the Review scrolls no sideways.
  await page.emulateMedia({ colorScheme: 'dark' });
  const reviewWidth = await widthAt(page, 390);
  await screenshot(page, 'run-custom-server-review-390-dark');
  expect(reviewWidth).toBeLessThanOrEqual(390);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });

  mock.resetStats();
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);
  const runId = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/run\//, ''));
  // No batch service for this server: a paused run offers no batch mode.
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.locator('[data-status="paused"]').waitFor({ timeout: 60_000 });
  expect(await page.getByRole('group', { name: 'Batch mode' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 60_000 });
  expect(await page.locator('main').innerText()).not.toMatch(/The run stopped/);
  expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('done');
  expect(await page.getByTestId('samples-done').textContent()).toBe(`${CAPITALS.length * N} / ${CAPITALS.length * N}`);
  // Exactly n per question, none served twice; one request per sample once the probe found n ignored.
  const served = mock.stats().served;
  for (let i = 1; i <= CAPITALS.length; i++) expect(served[`c${i}`]).toBe(N);
  expect(mock.stats().requests).toBe(CAPITALS.length * N);
  expect(mock.stats().lastRequest?.headers).not.toContain('authorization');

  // The Runs list names the model the same way.
  await page.goto(`${inject('appUrl')}#/runs`);
  const listed = page.locator(`tr[data-run-id="${runId}"]`);
  await listed.waitFor();
  expect(await listed.innerText()).toContain(shown);
  expect(await listed.innerText()).not.toContain('custom/');
  await screenshot(page, 'runs-list-custom-server');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await screenshot(page, 'runs-list-custom-server-390-dark');

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
