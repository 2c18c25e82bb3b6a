import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { demoDocument } from './report-fixture';
import { reportToJson } from '../../src/formats/report-export';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A one-model report (the most common kind), opened from a file at the given width. */
async function openOneModel(width: number) {
  const doc = demoDocument();
  doc.models = [doc.models[0]];
  doc.demo = false;
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'one.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached', timeout: 60_000 });
  return { page, context };
}

test('a one-model report keeps its reliability diagram at a readable size on a wide screen', async () => {
  const { page, context } = await openOneModel(1280);
  const box = (await page.locator('[data-chart="reliability"]').first().boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(640);
  expect(box.width).toBeGreaterThan(300);
  await screenshot(page, 'report-one-model-1280');
  await context.close();
});

test('at 390 px wide the report page scrolls no sideways and its charts fit the screen', async () => {
  const { page, context } = await openOneModel(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = (await page.locator('[data-chart="reliability"]').first().boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await screenshot(page, 'report-one-model-390');
  // The other views too.
  for (const view of ['difficulty', 'questions']) {
    await page.locator(`[data-view="${view}"]`).click();
    await page.locator(`#view-${view}`).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), view).toBeLessThanOrEqual(390);
  }
  await context.close();
});
