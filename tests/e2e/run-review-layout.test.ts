/**
 * The review step on a phone: what the estimate table is, said in full, not cut off at the edge
 * of the table's scroll box.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { afterLayout, launchChromium, screenshot } from './chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('at 390 px the review step says what its estimate table is in full, outside the table’s scroll box (dark)', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 900 }, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(`${inject('appUrl')}#/new`);
  // The default draft (the built-in questions, one model) goes straight to the review.
  for (let step = 0; step < 3; step++) await page.locator('button.primary:has-text("Next")').click();
  await page.getByRole('heading', { name: /Review and start/ }).waitFor({ timeout: 60_000 });
  await afterLayout(page);
  const shown = await page.evaluate(() => {
    const el = [...document.querySelectorAll('main *')].find(
      (e) => e.children.length === 0 && e.textContent?.startsWith('Estimate before anything is sent') && !e.classList.contains('visually-hidden'),
    )!;
    const right = el.getBoundingClientRect().right;
    // The nearest box that clips it, if any.
    let clip = document.documentElement.clientWidth;
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') clip = Math.min(clip, a.getBoundingClientRect().right);
    }
    return { right, clip };
  });
  expect(shown.right).toBeLessThanOrEqual(shown.clip + 0.5);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'run-review-390-dark');
  await context.close();
});
