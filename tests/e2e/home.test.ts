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

test('home opens on the demo report, labelled as demo data, with the ways in, clean and offline', async () => {
  const doc = demoDocument();
  const { page, context, consoleErrors, offLoopback } = await openHome(browser, inject('appUrl'));
  await expect.poll(() => page.locator('[data-demo-label]').isVisible()).toBe(true);
  expect(await page.locator('[data-demo-label]').textContent()).toMatch(/demo data/i);
  expect(await page.locator('h1').first().textContent()).toContain('Sem-ECE');
  expect(await page.locator('[data-report] .report-title').textContent()).toBe(doc.title);
  for (const label of ['New run', 'Open report', 'Classroom']) {
    expect(await page.locator('main nav a', { hasText: label }).count()).toBe(1);
  }
  // One headline row per model, each naming the model and its question count from the document.
  const rows = page.locator('[data-table="headline"] tbody tr');
  expect(await rows.count()).toBe(doc.models.length);
  for (let i = 0; i < doc.models.length; i++) {
    const cells = await rows.nth(i).locator('th, td').allTextContents();
    expect(cells[0]).toBe(doc.models[i].model);
    expect(Number(cells[1])).toBe(doc.models[i].metrics.questions);
  }
  await page.waitForLoadState('networkidle');
  await screenshot(page, 'home');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('home is readable in dark mode and the theme toggle switches it', async () => {
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'), 'dark');
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await bg();
  await screenshot(page, 'home-dark');
  // system → light
  await page.locator('.theme-toggle').click();
  const light = await bg();
  expect(light).not.toBe(dark);
  expect(light).toBe('rgb(255, 255, 255)');
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('an unknown route says so and keeps the header', async () => {
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  await page.goto(`${inject('appUrl')}#/no-such-page`);
  await page.locator('h1', { hasText: 'Page not found' }).waitFor();
  expect(await page.locator('header nav a').count()).toBe(6);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('the measures beside the headline (equal-mass ECE, MCE, smooth ECE, AURC) are shown, as the document holds them', async () => {
  const doc = demoDocument();
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  await page.locator('[data-other-metrics] summary').click();
  const m = doc.models[0];
  const table = page.locator(`table[data-table="other-metrics"][data-model="${m.model}"]`);
  for (const [key, value] of [['mce', m.metrics.signals.sem1!.mce], ['aurc', m.metrics.signals.sem1!.aurc], ['eceEqualMass', m.metrics.signals.sem1!.eceEqualMass]] as const) {
    expect((await table.locator(`tr[data-signal="sem1"] td[data-metric="${key}"]`).textContent())!.trim()).toBe(value.toFixed(3));
  }
  // Smooth ECE comes with the build-time document, shown with its bandwidth.
  const sm = m.metrics.signals.sem1!;
  expect((await table.locator('tr[data-signal="sem1"] td[data-metric="smoothEce"]').textContent())!.trim()).toBe(`${sm.smoothEce.toFixed(3)} (bandwidth σ = ${sm.smoothEceBandwidth!.toFixed(3)})`);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
