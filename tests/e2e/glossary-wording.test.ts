import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage } from './chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('the glossary names the uncertainty terms and no "debiased" estimate (the bias-corrected ECE under its true name only)', async () => {
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/glossary`);
  await page.locator('dt#term-ece-interval').waitFor({ timeout: 60_000 });
  for (const [id, term] of [
    ['ece-interval', 'ECE interval (95%)'],
    ['calibration-test', 'Calibration test (p)'],
    ['consistency-band', 'Consistency band'],
    ['best-signal', 'Best calibrated signal'],
    ['ece-bias-corrected', 'Bootstrap bias-corrected ECE'],
  ]) {
    expect(await page.locator(`dt#term-${id}`).innerText()).toBe(term);
  }
  expect(await page.locator('main').innerText()).not.toMatch(/debiased/i);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
