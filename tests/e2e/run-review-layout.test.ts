/**
 * The review step on a phone: what the estimate table is, said in full, not cut off at the edge
 * of the table's scroll box; and p(True), chosen on the Settings step, priced in it before anything
 * is sent.
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

test('p(True) chosen on the Settings step is a row of the review’s estimate', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${inject('appUrl')}#/new`);
  for (let step = 0; step < 2; step++) await page.locator('button.primary:has-text("Next")').click();
  const estimateRows = page.locator('table tbody tr th, table tbody tr td:first-child');
  await page.getByLabel(/^Ask p\(True\) once per question/).check();
  expect(await page.getByLabel('p(True) replies where the provider returns no logprobs').inputValue()).toBe('10');
  await page.locator('button.primary:has-text("Next")').click();
  await page.getByRole('heading', { name: /Review and start/ }).waitFor({ timeout: 60_000 });
  expect((await estimateRows.allTextContents()).some((t) => t.trim().startsWith('p(True) '))).toBe(true);
  // Unchecked again, the row goes.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByLabel(/^Ask p\(True\) once per question/).uncheck();
  await page.locator('button.primary:has-text("Next")').click();
  await page.getByRole('heading', { name: /Review and start/ }).waitFor();
  expect((await estimateRows.allTextContents()).some((t) => t.trim().startsWith('p(True) '))).toBe(false);
  await context.close();
});
