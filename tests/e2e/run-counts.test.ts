/**
 * The run page's counts agree with each other and with the server, and say what they count: a
 * run on another OpenAI-compatible server that refuses several replies per request (the n-probe
 * sends its first request again with one reply), answers one 500 that is retried, and refuses
 * one question outright. Requests sent equals what reached the mock (the refused question's
 * probe costs 2, as it did at the server); only what failed is listed as an error, the probe's 400 and the retried 500
 * under "Handled"; sampling ends at the samples stored, saying how many were left out; and no
 * internal id ("custom", "bad-request") shows.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { closeWithMock, demoMockQuestions, launchWithMock } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';
import { DEMO_QUESTIONS } from '../../src/demo/questions';

const QUESTIONS = DEMO_QUESTIONS.slice(0, 4);
const N = 3;
const REFUSAL = 'This prompt was refused by the content policy.';

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  // The first question is refused whatever is asked; the others are answered one reply per request.
  const questions = demoMockQuestions(QUESTIONS).map((q, i) => (i === 0 ? { ...q, refuse: REFUSAL } : q));
  ({ browser, mock } = await launchWithMock({ apiKey: null, latencyMs: 20, rejectMultiple: true, questions }));
});
afterAll(() => closeWithMock(browser, mock));

test('requests sent match the server, handled events are not errors, and sampling ends at the samples stored', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const next = () => page.getByRole('button', { name: /^Next:/ }).click();
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByLabel('How many demo questions').fill(String(QUESTIONS.length));
  await next();
  await page.getByLabel('Provider').selectOption({ label: 'Another OpenAI-compatible server' });
  await page.getByLabel('Model id').fill('counted');
  await page.getByLabel('Base URL').fill(`${mock.url}/v1`);
  await next();
  await page.getByLabel('Samples per question (n)').fill(String(N));
  // One request at a time: the probe, the refusal and the retry happen in a known order.
  await page.getByLabel('Requests at once (per model)').fill('1');
  await next();
  await page.getByRole('heading', { name: /^Step 4 of 4/ }).waitFor();

  mock.resetStats();
  // The fourth request that is not refused gets a 500, retried once.
  mock.configure({ faults: { sequence: ['ok', 'ok', 'ok', 'server-500'] } });
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);
  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 120_000 });
  expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('done');

  const stats = mock.stats();
  const text = async (id: string) => (await page.getByTestId(id).textContent())?.trim();
  // Every request counted once: the refused question costs 2 (n = 3 refused, then n = 1 refused),
  // the other 9 samples one request each, and the 500 one more.
  expect(stats.requests).toBe(12);
  expect(await text('requests-sent')).toBe(String(stats.requests));
  expect(await text('requests-answered')).toBe('9');
  expect(await text('requests-failed')).toBe('1');
  expect(await text('requests-handled')).toBe('2');
  // Samples: 3 of 4 questions, and the sampling stage says the same rather than "12 / 12".
  expect(await text('samples-done')).toBe(`${3 * N} / ${4 * N}`);
  expect(await page.locator('[data-stage-count="sample"]').textContent()).toMatch(/^\s*9 \/ 12 samples — 3 left out\s*$/);

  // Errors: only what failed (the refused question); the handled ones are listed apart.
  const errors = await page.getByTestId('error-list').locator('li').allTextContents();
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) expect(e).toMatch(/content policy/);
  await page.getByTestId('handled-list').locator('summary').click();
  const handled = await page.getByTestId('handled-list').locator('li').allTextContents();
  expect(handled).toHaveLength(2);
  expect(handled.filter((h) => /Only one completion choice is allowed/.test(h))).toHaveLength(1);
  expect(handled.filter((h) => /server error \(HTTP 500\)/.test(h))).toHaveLength(1);

  const all = await page.locator('main').innerText();
  // The provider by its display name everywhere on the page, never its id; kinds in words.
  expect(all).not.toMatch(/\bcustom\b|bad-request/);
  expect(all).toMatch(/The OpenAI-compatible server rejected the request \(400\)/);
  expect(all).toMatch(/counted on the OpenAI-compatible server: The model refused several replies per request/);
  await screenshot(page, 'run-counts-done');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'run-counts-done-390');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'run-counts-done-390-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  expect(offLoopback).toEqual([]);
  expect(consoleErrors.filter((e) => !/status of (400|500)/.test(e))).toEqual([]);
  await context.close();
});
