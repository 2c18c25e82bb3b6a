/**
 * One run, two tabs of one browser profile: the tab that started the run holds its Web Lock;
 * a second tab that opens the run says so, shows the first tab's progress and starts no runner of
 * its own, even with the key remembered (which would make it resume by itself); when the first
 * tab closes, the second takes the run over and finishes it. The mock serves every sample once.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { startRunThroughWizard, storedSamplesByQuestion } from './run-helpers';
import { closeWithMock, demoMockQuestions, holdUntilSettled, launchWithMock, servedDemoSamples } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';
import { DEMO_QUESTIONS } from '../../src/demo/questions';

const QUESTIONS = DEMO_QUESTIONS.slice(0, 6);
const N = 30;
const CONCURRENCY = 2;

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({
    apiKey: 'mock-key',
    // Slow replies while a second tab opens and watches: 10 samples a second, so the run is
    // still going when a busy machine has loaded that tab (at 150 ms it could finish first).
    latencyMs: 1_000,
    maxN: { openai: 5 },
    questions: demoMockQuestions(QUESTIONS),
  }));
});
afterAll(() => closeWithMock(browser, mock));

const servedTotal = () => servedDemoSamples(mock);
const shownSamples = async (page: Page) => Number((await page.getByTestId('samples-done').textContent())?.split('/')[0].replace(/\D/g, ''));

test('a second tab watches the run the first tab is running, then takes it over when that tab closes', async () => {
  const { page: first, context, consoleErrors, offLoopback } = await openPage(browser);
  const appUrl = inject('appUrl');
  const runId = await startRunThroughWizard(first, appUrl, { demoCount: QUESTIONS.length, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: 'mock-key', remember: true, n: N, concurrency: CONCURRENCY });
  await expect.poll(servedTotal, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(10);

  const second = await context.newPage();
  second.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  await second.goto(`${appUrl}#/run/${encodeURIComponent(runId)}`);
  await second.getByText('This run is running in another tab.').waitFor({ timeout: 60_000 });
  // It shows the first tab's progress as it goes, and offers no Resume (that would be a second runner).
  const seen = await shownSamples(second);
  await expect.poll(() => shownSamples(second), { timeout: 60_000, interval: 100 }).toBeGreaterThan(seen);
  expect(await second.getByRole('button', { name: 'Resume' }).count()).toBe(0);
  expect(await second.getByRole('button', { name: 'Pause' }).count()).toBe(1);
  await screenshot(second, 'run-two-tabs-watching');
  // One runner: never more requests at once than one tab's concurrency.
  expect(mock.stats().maxInFlight).toBeLessThanOrEqual(CONCURRENCY);
  // The Runs page of the watching tab says where the run is going, and offers no Resume.
  await second.goto(`${appUrl}#/runs`);
  const row = second.locator(`tr[data-run-id="${runId}"]`);
  await row.getByText('running in another tab').waitFor({ timeout: 60_000 });
  expect(await row.getByRole('button', { name: 'Resume' }).count()).toBe(0);
  await second.goto(`${appUrl}#/run/${encodeURIComponent(runId)}`);
  await second.getByText('This run is running in another tab.').waitFor({ timeout: 60_000 });

  // Hold new requests and let everything delivered be stored, so closing the tab loses nothing.
  await holdUntilSettled(mock, second, 400);
  expect(servedTotal()).toBeLessThan(QUESTIONS.length * N);
  await first.close();
  mock.configure({ latencyMs: 20 });

  await second.getByText('let go of it').waitFor({ timeout: 60_000 });
  await second.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  await screenshot(second, 'run-two-tabs-taken-over');
  const served = mock.stats().served;
  for (const q of QUESTIONS) expect(served[q.id], q.id).toBe(N);
  const stored = await storedSamplesByQuestion(second);
  expect(Object.values(stored)).toEqual(QUESTIONS.map(() => N));

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('Pause in the watching tab pauses the run in the tab running it; Resume there moves the run to it', async () => {
  mock.resetStats();
  mock.configure({ latencyMs: 1_000 });
  const { page: first, context, consoleErrors, offLoopback } = await openPage(browser);
  const appUrl = inject('appUrl');
  const questions = QUESTIONS.slice(0, 3);
  const runId = await startRunThroughWizard(first, appUrl, { demoCount: questions.length, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: 'mock-key', n: N, concurrency: CONCURRENCY });
  await expect.poll(servedTotal, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(5);

  const second = await context.newPage();
  await second.goto(`${appUrl}#/run/${encodeURIComponent(runId)}`);
  await second.getByText('This run is running in another tab.').waitFor({ timeout: 60_000 });
  await second.getByRole('button', { name: 'Pause' }).click();
  await first.locator('[data-status="paused"]').waitFor({ timeout: 60_000 });
  await second.locator('[data-status="paused"]').waitFor({ timeout: 60_000 });
  expect(await second.getByText('This run is running in another tab.').count()).toBe(0);

  // Resumed in the second tab (the key typed there): the first tab now watches.
  mock.configure({ latencyMs: 20 });
  await second.getByLabel(/^API key for OpenAI/).fill('mock-key');
  await second.getByRole('button', { name: 'Resume' }).click();
  await first.getByText('This run is running in another tab.').waitFor({ timeout: 60_000 });
  await second.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  await first.locator('[data-status="done"]').waitFor({ timeout: 60_000 });
  for (const q of questions) expect(mock.stats().served[q.id], q.id).toBe(N);

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
