import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { startRunThroughWizard, storedSamplesByQuestion } from './run-helpers';
import { closeWithMock, demoMockQuestions, launchWithMock, storedSamplesTotal } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';
import { DEMO_QUESTIONS } from '../../src/demo/questions';

const QUESTIONS = DEMO_QUESTIONS.slice(0, 20);
const N = 50;
const KEY = 'mock-key-storage-full-0123456789';

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: KEY, questions: demoMockQuestions(QUESTIONS) }));
});
afterAll(() => closeWithMock(browser, mock));

test('storage full: the run stops saying how full and what to do; what was stored is kept, and with room again it resumes to exactly n per question', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const appUrl = inject('appUrl');
  await page.goto(`${appUrl}#/runs`);
  // The page's heading shows before the app's worker has created its database (about 74 KB
  // empty); the storage line shows once the runs have been read from it. Measured before that,
  // `used` was 0 and the quota below smaller than the empty database, so whether the run could
  // even start depended on which came first.
  await page.getByTestId('storage-used').waitFor();
  // The browser's own quota, made small for this origin: a little more than it uses now, less than
  // the run's 1,000 samples need (stored by question they take about 80 KB).
  const cdp = await context.newCDPSession(page);
  const origin = new URL(appUrl).origin;
  const used = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  expect(used, 'the app has created its database before the quota is set').toBeGreaterThan(0);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: used + 40_000 });

  await startRunThroughWizard(page, appUrl, { demoCount: QUESTIONS.length, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: KEY, n: N, concurrency: 2 });
  const alert = page.getByRole('alert');
  await alert.waitFor({ timeout: 120_000 });
  expect(await alert.textContent()).toMatch(/The browser's storage for this site is full.*, so .* could not be stored\. Everything stored before is kept\. Free some space/);
  await screenshot(page, 'run-storage-full');
  const kept = await storedSamplesTotal(page);
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(QUESTIONS.length * N);

  // Room again: resuming asks only for what is missing, and every question ends with exactly N.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  await page.getByLabel(/^API key for OpenAI/).fill(KEY);
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  const stored = await storedSamplesByQuestion(page);
  expect(Object.values(stored)).toEqual(Array(QUESTIONS.length).fill(N));

  expect(offLoopback).toEqual([]);
  expect(consoleErrors.filter((e) => !/QuotaExceeded|quota/i.test(e))).toEqual([]);
  await context.close();
});
