/**
 * "Start run" starts one run: from the first click until the run's page replaces the wizard
 * (its code may take a moment to load; here it is held back on purpose) the button is disabled
 * and busy, the page says the run is starting, and a second click starts nothing.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { closeWithMock, launchWithMock } from './wizard-helpers';
import { readAppDatabase } from './run-helpers';
import type { MockProviderServer } from '../mock/provider-server';

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: null, latencyMs: 50 }));
});
afterAll(() => closeWithMock(browser, mock));

test('a second click on Start run while the first is starting starts no second run', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const next = () => page.getByRole('button', { name: /^Next:/ }).click();
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByLabel('How many demo questions').fill('2');
  await next();
  await page.getByLabel('Provider').selectOption({ label: 'Another OpenAI-compatible server' });
  await page.getByLabel('Model id').fill('start-once');
  await page.getByLabel('Base URL').fill(`${mock.url}/v1`);
  await next();
  await page.getByLabel('Samples per question (n)').fill('2');
  await next();
  await page.getByRole('heading', { name: /^Step 4 of 4/ }).waitFor();

  // The run page's code is held until released, as a slow connection or a cold cache would.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/RunPage-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const start = page.getByRole('button', { name: /^(Start run|Starting…)$/ });
  await start.click();
  await page.waitForURL(/#\/run\//);
  // Still the wizard, and it says it is starting; the button refuses a second click.
  await page.getByTestId('starting').waitFor();
  expect(await start.isDisabled()).toBe(true);
  expect(await start.getAttribute('aria-busy')).toBe('true');
  expect(await start.textContent()).toBe('Starting…');
  await screenshot(page, 'run-start-once-starting');
  await start.click({ force: true });
  await start.dispatchEvent('click');
  release();
  await page.getByRole('button', { name: 'Pause' }).or(page.getByRole('link', { name: 'Open the report' })).first().waitFor({ timeout: 60_000 });
  const { count } = await readAppDatabase(page, { count: ['runs'] });
  expect(count.runs).toBe(1);

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
