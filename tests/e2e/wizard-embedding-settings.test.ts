/**
 * The embedding settings in the built wizard: the default hub model is downloaded (its
 * approximate size said before Start), "Use shipped models only" with a model the app does not
 * ship is refused with the reason, and a shipped model downloads nothing. Nothing is started, and
 * nothing leaves loopback.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

test('embedding defaults: download said with its size, an unworkable "shipped only" refused before Start', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const nextButton = page.getByRole('button', { name: /^Next:/ });
  await page.goto(`${inject('appUrl')}#/new`);
  await nextButton.click();
  await nextButton.click();

  await page.getByLabel(/^Embeddings/).check();
  const download = page.getByTestId('embedding-download');
  expect(await download.textContent()).toContain('"Xenova/all-MiniLM-L6-v2" is downloaded from the Hugging Face hub on first use, of about 23 MB (approximate), and kept by this browser');
  expect(await page.getByLabel(/^Use shipped models only/).isChecked()).toBe(false);
  expect(await nextButton.isEnabled()).toBe(true);

  await page.getByLabel(/^Use shipped models only/).check();
  const problems = page.locator('ul.problems');
  await problems.waitFor();
  expect(await problems.textContent()).toMatch(/"Xenova\/all-MiniLM-L6-v2" is not shipped with this app \(shipped: tiny-embedder\)/);
  expect(await nextButton.isDisabled()).toBe(true);
  await screenshot(page, 'wizard-embedding-shipped-only-refused');

  await page.getByLabel('Embedding model').fill('tiny-embedder');
  expect(await download.textContent()).toContain('"tiny-embedder" is shipped with this app: nothing is downloaded.');
  expect(await problems.count()).toBe(0);
  await nextButton.click();
  expect(await page.getByTestId('embedding-review').textContent()).toContain('"tiny-embedder" is shipped with this app');

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
