/**
 * A run on another OpenAI-compatible server, started with a key that was typed but not
 * remembered, paused, and the page reloaded: pressing Resume with the key field empty sends
 * nothing (the mock counts every request), and the page says the key was not remembered and asks
 * for it, naming the server by its display name (never the internal id "custom"); with the key
 * entered it resumes and finishes.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { closeWithMock, demoMockQuestions, launchWithMock, servedDemoSamples } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';
import { DEMO_QUESTIONS } from '../../src/demo/questions';

const KEY = 'mock-key';
const QUESTIONS = 6;
const N = 6;

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: KEY, latencyMs: 400, questions: demoMockQuestions(DEMO_QUESTIONS) }));
});
afterAll(() => closeWithMock(browser, mock));

test('Resume with a key that was not remembered asks for it and sends nothing; with the key it resumes', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const next = () => page.getByRole('button', { name: /^Next:/ }).click();
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByLabel('How many demo questions').fill(String(QUESTIONS));
  await next();
  await page.getByLabel('Provider').selectOption({ label: 'Another OpenAI-compatible server' });
  await page.getByLabel('Model id').fill('my-model');
  await page.getByLabel('Base URL').fill(`${mock.url}/v1`);
  // Typed for this tab only ("Remember this key on this device" left unticked).
  await page.getByLabel(/^API key/).fill(KEY);
  await next();
  await page.getByLabel('Samples per question (n)').fill(String(N));
  await page.getByLabel('Requests at once (per model)').fill('1');
  await next();
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);

  await expect.poll(() => servedDemoSamples(mock), { timeout: 60_000 }).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.locator('[data-status="paused"]').waitFor({ timeout: 60_000 });
  await page.reload();
  await page.locator('[data-status="paused"]').waitFor({ timeout: 60_000 });

  const field = page.getByLabel(/^API key for /);
  expect(await field.inputValue()).toBe('');

  mock.resetStats();
  await page.getByRole('button', { name: 'Resume' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  // Nothing reached the server, the run is still paused, and the key field has the focus.
  expect(mock.stats().requests).toBe(0);
  const host = new URL(mock.url).host;
  expect(await alert.textContent()).toBe(`The key for the OpenAI-compatible server (${host}) was not remembered on this device, so nothing was sent: enter it, then resume.`);
  expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('paused');
  expect(await page.locator('label[for^="key-"]').textContent()).toBe(`API key for the OpenAI-compatible server (${mock.url}/v1)`);
  await page.getByTestId('key-not-remembered').waitFor();
  expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
  const text = await page.locator('main').innerText();
  expect(text).not.toMatch(/check the key for custom|custom rejected|\(401\)/);
  await screenshot(page, 'run-resume-key-asked');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'run-resume-key-asked-390');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'run-resume-key-asked-390-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });

  await field.fill(KEY);
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 120_000 });
  expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('done');
  expect(mock.stats().byStatus['401'] ?? 0).toBe(0);
  expect(await page.getByTestId('samples-done').textContent()).toBe(`${QUESTIONS * N} / ${QUESTIONS * N}`);

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
