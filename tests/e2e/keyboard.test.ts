import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { openHome } from './report-fixture';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('a skip link first, then the report tabs as one Tab stop that arrow keys, Home and End move along', async () => {
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  const focused = () => page.evaluate(() => ({ id: document.activeElement?.id ?? '', text: document.activeElement?.textContent?.trim() ?? '', view: document.activeElement?.getAttribute('data-view') ?? '' }));

  await page.keyboard.press('Tab');
  expect((await focused()).text).toBe('Skip to content');
  await page.keyboard.press('Enter');
  expect((await focused()).id).toBe('main');
  expect(page.url()).not.toContain('#main');

  // Only the selected tab is in the Tab order.
  const tabs = page.locator('[role="tab"]');
  expect(await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('tabindex')))).toEqual(['0', '-1', '-1', '-1']);
  await page.locator('[role="tab"][data-view="calibration"]').focus();
  await page.keyboard.press('ArrowRight');
  expect((await focused()).view).toBe('difficulty');
  expect(await page.locator('[data-view="difficulty"]').getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('End');
  expect((await focused()).view).toBe('selective');
  await page.keyboard.press('ArrowRight');
  expect((await focused()).view).toBe('calibration');
  await page.keyboard.press('ArrowLeft');
  expect((await focused()).view).toBe('selective');
  await page.keyboard.press('Home');
  expect((await focused()).view).toBe('calibration');
  expect(await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('tabindex')))).toEqual(['0', '-1', '-1', '-1']);
  // Tab leaves the tab list for its panel.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tabpanel');

  expect(consoleErrors).toEqual([]);
  await context.close();
});
