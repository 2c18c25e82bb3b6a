import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { startRunThroughWizard, storedSamplesByQuestion } from './run-helpers';
import { closeWithMock, demoMockQuestions, holdUntilSettled, launchWithMock, servedDemoSamples, storedSamplesTotal } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';
import { ALL_RETRYABLE_FAULTS } from '../mock/faults';
import { DEMO_QUESTIONS } from '../../src/demo/questions';

const QUESTIONS = DEMO_QUESTIONS.slice(0, 20);
const N = 50;

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({
    apiKey: 'mock-key',
    latencyMs: 30,
    // Five replies per request at most, so each question takes several requests and the fault rate bites.
    maxN: { openai: 5 },
    faults: { probability: 0.2, kinds: ALL_RETRYABLE_FAULTS, slowMs: 300, retryAfterSeconds: 1, seed: 11 },
    questions: demoMockQuestions(QUESTIONS),
  }));
});
afterAll(() => closeWithMock(browser, mock));

const servedTotal = () => servedDemoSamples(mock);

test('20 questions × 50 samples with 20% of requests faulted, reloaded mid-run and resumed: exactly 50 stored per question, none served twice', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const appUrl = inject('appUrl');
  const runId = await startRunThroughWizard(page, appUrl, { demoCount: QUESTIONS.length, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: 'mock-key', n: N, concurrency: 8 });
  await expect.poll(servedTotal, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(300);
  // Held before the screenshot: a full-page shot on a busy machine takes long enough for the
  // run to finish, and the reload must cut it off mid-way.
  await holdUntilSettled(mock, page, 500);
  await screenshot(page, 'run-resume-mid-run');
  const beforeReload = servedTotal();
  expect(beforeReload).toBeLessThan(QUESTIONS.length * N);

  await page.reload();
  await page.locator('[data-status="interrupted"]').waitFor({ timeout: 60_000 });
  await screenshot(page, 'run-resume-interrupted');
  mock.configure({ latencyMs: 30 });

  await page.getByLabel(/^API key for OpenAI/).fill('mock-key');
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 180_000 });
  await screenshot(page, 'run-resume-done');

  const served = mock.stats().served;
  for (const q of QUESTIONS) expect(served[q.id], q.id).toBe(N);
  const stored = await storedSamplesByQuestion(page);
  expect(Object.keys(stored)).toHaveLength(QUESTIONS.length);
  expect(Object.values(stored).every((n) => n === N)).toBe(true);
  expect(mock.stats().faults).not.toEqual({});
  expect(decodeURIComponent(page.url())).toContain(runId);

  expect(offLoopback).toEqual([]);
  // Injected faults make Chromium log the failed responses themselves; anything else is an app error.
  expect(consoleErrors.filter((e) => !/^Failed to load resource|net::ERR_/.test(e))).toEqual([]);
  await context.close();
});

test('with the key remembered, a run cut off by a reload carries on by itself', async () => {
  mock.resetStats();
  // 80 samples at 10 per 150 ms: over a second between the first 10 and the last, room for a
  // poll delayed by a busy machine to hold the run before it ends.
  mock.configure({ latencyMs: 150 });
  const { page, context, offLoopback } = await openPage(browser);
  const questions = QUESTIONS.slice(0, 4);
  await startRunThroughWizard(page, inject('appUrl'), { demoCount: questions.length, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: 'mock-key', remember: true, n: 20, concurrency: 2 });
  await expect.poll(servedTotal, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(10);
  await holdUntilSettled(mock, page, 500);
  expect(servedTotal()).toBeLessThan(questions.length * 20);
  await page.reload();
  mock.configure({ latencyMs: 30 });
  await page.getByText('it carried on from where it stopped').waitFor({ timeout: 60_000 });
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  for (const q of questions) expect(mock.stats().served[q.id], q.id).toBe(20);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('pause keeps what is in flight and stops; resume finishes with exactly n per question; cancel stops for good', async () => {
  mock.resetStats();
  mock.configure({ latencyMs: 150 });
  const { page, context, offLoopback } = await openPage(browser);
  const questions = QUESTIONS.slice(0, 4);
  const appUrl = inject('appUrl');
  await startRunThroughWizard(page, appUrl, { demoCount: questions.length, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: 'mock-key', n: 30, concurrency: 2 });
  await expect.poll(servedTotal, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(10);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.locator('[data-status="paused"]').waitFor({ timeout: 60_000 });
  await screenshot(page, 'run-paused');
  // Paused: nothing more is asked, and everything delivered is stored.
  const atPause = servedTotal();
  expect(atPause).toBeLessThan(questions.length * 30);
  expect(await storedSamplesTotal(page)).toBe(atPause);
  await new Promise((r) => setTimeout(r, 500));
  expect(servedTotal()).toBe(atPause);

  mock.configure({ latencyMs: 20 });
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  for (const q of questions) expect(mock.stats().served[q.id], q.id).toBe(30);

  // A second run, cancelled: it stays cancelled and asks for nothing more.
  mock.configure({ latencyMs: 150 });
  await startRunThroughWizard(page, appUrl, { demoCount: 8, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: 'mock-key', n: 30, concurrency: 2 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.locator('[data-status="cancelled"]').waitFor({ timeout: 60_000 });
  const atCancel = mock.stats().requests;
  await new Promise((r) => setTimeout(r, 500));
  expect(mock.stats().requests).toBe(atCancel);
  expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(1);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('reloaded at an arbitrary moment, nothing held: every question ends with exactly n, and only the replies in flight at the reload are served again', async () => {
  mock.resetStats();
  // Requests take 1 s, far longer than a batched write (store/sample-store.ts) even on a busy
  // machine: within one request's time every delivered reply is committed, so at a reload at
  // most the requests open at the mock plus one delivered-but-uncommitted request per slot can
  // be lost.
  mock.configure({ latencyMs: 1_000 });
  const concurrency = 4;
  const maxN = 5;
  const questions = QUESTIONS.slice(0, 8);
  const n = 30;
  const { page, context, offLoopback } = await openPage(browser);
  await startRunThroughWizard(page, inject('appUrl'), { demoCount: questions.length, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: 'mock-key', n, concurrency });
  await expect.poll(servedTotal, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(60);
  const openAtReload = mock.stats().inFlight;
  await page.reload();
  await page.locator('[data-status="interrupted"]').waitFor({ timeout: 60_000 });
  // The old page's requests have all ended (answered into a closed socket or not at all).
  await expect.poll(() => mock.stats().inFlight, { timeout: 60_000, interval: 50 }).toBe(0);
  const servedBefore = servedTotal();
  const storedBefore = await storedSamplesTotal(page);
  const lost = servedBefore - storedBefore;
  expect(servedBefore).toBeLessThan(questions.length * n);
  expect(lost).toBeGreaterThanOrEqual(0);
  expect(lost).toBeLessThanOrEqual((openAtReload + concurrency) * maxN);

  mock.configure({ latencyMs: 20 });
  await page.getByLabel(/^API key for OpenAI/).fill('mock-key');
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  const stored = await storedSamplesByQuestion(page);
  expect(Object.values(stored)).toEqual(questions.map(() => n));
  // Served again: exactly the lost replies, nothing that was stored.
  expect(servedTotal() - questions.length * n).toBe(lost);
  for (const q of questions) expect(mock.stats().served[q.id], q.id).toBeGreaterThanOrEqual(n);
  expect(offLoopback).toEqual([]);
  await context.close();
});
