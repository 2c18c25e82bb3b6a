/**
 * Grades in the report's question table and drill-down are words ("not attempted"), never the
 * raw NOT_ATTEMPTED the report document and its exports keep (scripts read those).
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { demoDocument, openHome } from './report-fixture';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('a question graded NOT_ATTEMPTED reads "not attempted" in the table and the drill-down', async () => {
  const target = demoDocument().models[0].questions[0];
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  await page.locator('button[data-view="questions"]').click();
  await page.locator('input[data-control="search"]').fill(target.id);
  const row = page.locator(`[data-table="questions"] tr[data-id="${target.id}"]`);
  await row.locator('button.open').click();
  const drill = page.locator(`[data-drill="${target.id}"]`);
  await drill.waitFor();
  const select = drill.locator('select[data-control="grade"]');
  expect(await select.locator('option').allTextContents()).toEqual(['correct', 'incorrect', 'not attempted']);
  // The option's value stays the raw grade: what the document and its exports hold.
  await select.selectOption('NOT_ATTEMPTED');
  await expect.poll(async () => (await row.locator('.grade').textContent())?.trim()).toBe('not attempted ✎');
  expect(await drill.locator('.classes > li.modal .badge').textContent()).toBe('modal · not attempted');
  const shown = (await page.locator('[data-table="questions"]').innerText()) + (await drill.innerText());
  expect(shown).not.toMatch(/NOT_ATTEMPTED|\bINCORRECT\b|\bCORRECT\b/);
  await screenshot(page, 'report-grade-words');
  expect(consoleErrors).toEqual([]);
  await context.close();
});
