import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('the built app loads with no console error and no request off loopback', async () => {
  const { page, consoleErrors, offLoopback, context } = await openPage(browser);
  await page.goto(inject('appUrl'));
  await page.locator('h1').first().waitFor({ timeout: 60_000 });
  expect(await page.locator('h1').first().textContent()).toContain('Sem-ECE');
  await page.waitForLoadState('networkidle');
  await screenshot(page, 'first-page');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});
