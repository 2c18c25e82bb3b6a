import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { storedSamplesByQuestion } from './run-helpers';
import { closeWithMock, demoMockQuestions, holdUntilSettled, launchWithMock, servedDemoSamples } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';
import { DEMO_QUESTIONS } from '../../src/demo/questions';

const QUESTIONS = DEMO_QUESTIONS.slice(0, 4);
const KEY = 'local-server-key-0123456789';
const REFUSAL = 'This request was flagged by the content policy.';

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: KEY, questions: demoMockQuestions(QUESTIONS) }));
});
afterAll(() => closeWithMock(browser, mock));

/** The wizard on a local preset (vLLM: a key is optional there) pointed at the mock, with a key typed in and not remembered. */
async function startLocalRun(page: Page, n: number): Promise<void> {
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();
  await page.getByLabel('How many demo questions').fill(String(QUESTIONS.length));
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByLabel('Provider').selectOption('vllm');
  await page.getByLabel('Model id').fill('local-model');
  await page.getByLabel('Base URL').fill(`${mock.url}/v1`);
  await page.getByLabel(/^API key/).fill(KEY);
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByLabel('Samples per question (n)').fill(String(n));
  await page.getByLabel('Requests at once (per model)').fill('2');
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);
}

test('a run on a local preset whose key is not remembered waits after a reload for the key, on the run page, then resumes', async () => {
  mock.resetStats();
  // One reply per request: 80 requests, so the run cannot finish before it is held, however busy the machine.
  mock.configure({ latencyMs: 150, maxN: { openai: 1 }, questions: demoMockQuestions(QUESTIONS) });
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await startLocalRun(page, 20);
  await expect.poll(() => servedDemoSamples(mock), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(4);
  await holdUntilSettled(mock, page, 500);
  await page.reload();
  mock.configure({ latencyMs: 0 });
  const status = page.locator('[data-status="interrupted"]');
  await status.waitFor({ timeout: 60_000 });
  expect(await status.textContent()).toMatch(/interrupted — enter the key to resume/);
  // It did not resume without the key: nothing was refused with a 401.
  expect(mock.stats().byStatus[401] ?? 0).toBe(0);
  await screenshot(page, 'run-local-key-after-reload');
  await page.getByLabel(/^API key for vLLM/).fill(KEY);
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  for (const q of QUESTIONS) expect(mock.stats().served[q.id], q.id).toBe(20);
  mock.configure({ maxN: {} });
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a question the provider refuses is left out of the report with its reason; the others are scored; "Retry failed questions" asks for it alone', async () => {
  mock.resetStats();
  const refused = QUESTIONS[1];
  mock.configure({ latencyMs: 0, questions: demoMockQuestions(QUESTIONS).map((q) => (q.id === refused.id ? { ...q, refuse: REFUSAL } : q)) });
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await startLocalRun(page, 5);
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  const excluded = page.getByTestId('excluded-questions');
  expect(await excluded.textContent()).toMatch(new RegExp(`1 question was left out of the report.*${refused.id}.*the provider refused this question: .*content policy`, 's'));
  await screenshot(page, 'run-question-refused');
  for (const q of QUESTIONS) expect(mock.stats().served[q.id] ?? 0, q.id).toBe(q.id === refused.id ? 0 : 5);

  await page.getByRole('link', { name: 'Open the report' }).click();
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  await page.getByRole('tab', { name: 'Questions' }).click();
  const listed = page.locator('[data-excluded]');
  await listed.click();
  expect(await listed.textContent()).toMatch(new RegExp(`${refused.id}: the provider refused this question`));
  await page.goBack();

  // The policy lets it through now: retrying asks for that question only.
  mock.configure({ questions: demoMockQuestions(QUESTIONS) });
  await page.getByRole('button', { name: 'Retry failed questions' }).click();
  await expect.poll(() => mock.stats().served[refused.id] ?? 0, { timeout: 60_000 }).toBe(5);
  await page.getByTestId('excluded-questions').waitFor({ state: 'detached', timeout: 60_000 });
  await page.getByRole('link', { name: 'Open the report' }).waitFor();
  for (const q of QUESTIONS) expect(mock.stats().served[q.id], q.id).toBe(5);

  expect(offLoopback).toEqual([]);
  expect(consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  await context.close();
});

test('a paused run gives a partial report of its complete questions, labelled with its counts; nothing more is sampled', async () => {
  mock.resetStats();
  // One reply per request, two requests at once, 4 samples a question: questions complete one after another.
  mock.configure({ latencyMs: 300, maxN: { openai: 1 }, questions: demoMockQuestions(QUESTIONS) });
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await startLocalRun(page, 4);
  await expect.poll(() => servedDemoSamples(mock), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(4);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.locator('[data-status="paused"]').waitFor({ timeout: 60_000 });
  const servedBefore = servedDemoSamples(mock);
  const complete = QUESTIONS.filter((q) => (mock.stats().served[q.id] ?? 0) >= 4).length;
  // What the page stored agrees with what the mock served: the complete questions are those with all 4.
  expect(Object.values(await storedSamplesByQuestion(page)).filter((n) => n === 4)).toHaveLength(complete);
  expect(complete).toBeGreaterThan(0);
  expect(complete).toBeLessThan(QUESTIONS.length);

  await page.getByRole('button', { name: 'Make a partial report' }).click();
  const link = page.getByTestId('partial-report-link');
  await link.waitFor({ timeout: 60_000 });
  expect(await link.textContent()).toBe(`Open the partial report (${complete} of ${QUESTIONS.length} questions)`);
  expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('paused');
  expect(servedDemoSamples(mock)).toBe(servedBefore);
  await link.click();
  await page.locator('[data-partial]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-partial]').textContent()).toMatch(new RegExp(`Partial report: ${complete} of ${QUESTIONS.length} questions had all their samples .*the run was paused`));
  await screenshot(page, 'report-partial');
  mock.configure({ maxN: {} });

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
