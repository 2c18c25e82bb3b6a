import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { afterLayout, launchChromium, screenshot } from './chromium';
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

test('at 1280 px the headline table shows every number without a sideways scroll: one model, and one model with six signals', async () => {
  for (const six of [false, true]) {
    const doc = demoDocument();
    doc.models = [doc.models[0]];
    doc.demo = false;
    if (six) {
      // A multiple-choice run scored with Sem-ECE too: the stated probability and the token log-prob beside the paper's signals.
      const m = doc.models[0].metrics;
      m.signals.stated = m.signals.sem1;
      m.signals.logprob = m.signals.sem2;
      if (m.eceInference) m.eceInference = { ...m.eceInference, stated: m.eceInference.sem1, logprob: m.eceInference.sem2 };
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${inject('appUrl')}#/open`);
    await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'one.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
    const table = page.locator('[data-table="headline"]');
    await table.waitFor({ timeout: 60_000 });
    await afterLayout(page);
    const fit = await table.evaluate((t) => {
      const box = t.parentElement!;
      const right = box.getBoundingClientRect().right;
      return {
        columns: t.querySelectorAll('thead th').length,
        overflow: box.scrollWidth - box.clientWidth,
        // Brier and AUROC, the last columns, inside the box as drawn.
        hidden: [...t.querySelectorAll('td[data-metric]')].filter((td) => td.getBoundingClientRect().right > right + 0.5).map((td) => td.getAttribute('data-metric')),
      };
    });
    expect(fit.columns, six ? 'six signals' : 'four signals').toBe(six ? 12 : 10);
    expect(fit.overflow, six ? 'six signals' : 'four signals').toBeLessThanOrEqual(0);
    expect(fit.hidden).toEqual([]);
    await screenshot(page, `headline-1280-${six ? 'six-signals' : 'one-model'}`);
    await context.close();
  }
});

test('at 390 px a one-model report with six signals scrolls no sideways: headline cards, the signal choices, every view, the table for a paper', async () => {
  const doc = demoDocument();
  doc.models = [doc.models[0]];
  doc.demo = false;
  const m = doc.models[0].metrics;
  m.signals.stated = m.signals.sem1;
  m.signals.logprob = m.signals.sem2;
  if (m.eceInference) m.eceInference = { ...m.eceInference, stated: m.eceInference.sem1, logprob: m.eceInference.sem2 };
  const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'six.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached', timeout: 60_000 });
  await afterLayout(page);
  // Six ECE cells in the headline's phone card, each inside the card.
  const cells = await page.locator('[data-table="headline"] td[data-ece]').evaluateAll((tds) => tds.map((td) => Math.round(td.getBoundingClientRect().right)));
  expect(cells).toHaveLength(6);
  for (const right of cells) expect(right).toBeLessThanOrEqual(390);
  // The reliability panel's six signal checkboxes wrap rather than widen the page.
  expect(await page.locator('[data-signal]').count()).toBeGreaterThanOrEqual(6);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'calibration').toBeLessThanOrEqual(390);
  await page.locator('[data-paper-table] summary').click();
  await page.locator('[data-paper-table] [data-table="paper"]').waitFor({ timeout: 60_000 });
  await afterLayout(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'table for a paper').toBeLessThanOrEqual(390);
  await screenshot(page, 'report-six-signals-390');
  for (const view of ['difficulty', 'selective', 'questions']) {
    await page.locator(`[data-view="${view}"]`).click();
    await page.locator(`#view-${view}`).waitFor();
    await afterLayout(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), view).toBeLessThanOrEqual(390);
  }
  await context.close();
});
