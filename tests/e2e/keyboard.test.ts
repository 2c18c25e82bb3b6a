import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
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
  expect(await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('tabindex')))).toEqual(['0', '-1', '-1', '-1', '-1', '-1']);
  await page.locator('[role="tab"][data-view="calibration"]').focus();
  await page.keyboard.press('ArrowRight');
  expect((await focused()).view).toBe('difficulty');
  expect(await page.locator('[data-view="difficulty"]').getAttribute('aria-selected')).toBe('true');
  // The demo report has the Uncertainty methods view (its signals have ranking and recalibration metrics): the last tab.
  await page.keyboard.press('End');
  expect((await focused()).view).toBe('uncertainty');
  await page.keyboard.press('ArrowRight');
  expect((await focused()).view).toBe('calibration');
  await page.keyboard.press('ArrowLeft');
  expect((await focused()).view).toBe('uncertainty');
  await page.keyboard.press('ArrowLeft');
  expect((await focused()).view).toBe('slices');
  await page.keyboard.press('Home');
  expect((await focused()).view).toBe('calibration');
  expect(await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('tabindex')))).toEqual(['0', '-1', '-1', '-1', '-1', '-1']);
  // Tab leaves the tab list for its panel.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tabpanel');

  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a chart is one Tab stop: arrow keys, Home and End move between its marks, whose value is read out and shown', async () => {
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  await page.locator('[role="tab"][data-view="difficulty"]').click();
  const gap = page.locator('[data-chart="gap"]').first();
  await gap.locator('circle.dot').first().waitFor();

  // Every chart in the view keeps exactly one of its marks in the Tab order.
  const stops = await page.locator('#view-difficulty [data-chart]').evaluateAll((charts) =>
    charts.map((c) => [c.querySelectorAll('[data-mark]').length, c.querySelectorAll('[data-mark][tabindex="0"]').length]),
  );
  for (const [marks, inOrder] of stops) expect(inOrder).toBe(marks > 0 ? 1 : 0);

  // Tabbing through the whole view: the charts' marks are a handful of stops, not one per dot.
  await page.locator('#view-difficulty').focus();
  let tabStops = 0;
  let markStops = 0;
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => ({ inside: !!document.activeElement?.closest('#view-difficulty'), mark: document.activeElement?.hasAttribute('data-mark') ?? false }));
    if (!where.inside) break;
    tabStops++;
    if (where.mark) markStops++;
  }
  expect(markStops).toBe(stops.filter(([marks]) => marks > 0).length);
  expect(tabStops).toBeLessThan(40);

  // Into the first scatter's marks: the arrows walk them left to right.
  await gap.locator('[data-mark][tabindex="0"]').focus();
  const state = () =>
    page.evaluate(() => {
      const a = document.activeElement as SVGGraphicsElement;
      const b = a.getBBox();
      const chart = a.closest('.chart')!;
      return {
        label: a.getAttribute('aria-label') ?? '',
        x: b.x + b.width / 2,
        tip: chart.querySelector('.chart-tooltip')?.textContent ?? '',
        live: chart.querySelector('.chart-tooltip')?.getAttribute('role') ?? '',
        outline: getComputedStyle(a).stroke,
        inOrder: chart.querySelectorAll('[data-mark][tabindex="0"]').length,
        self: a.getAttribute('tabindex'),
      };
    });
  const first = await state();
  expect(first.label).toMatch(/margin .* Sem1 − Sem2/);
  // The chart's Tab stop starts on its leftmost mark.
  const xs = await gap.locator('[data-mark]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('cx'))));
  expect(first.x).toBeCloseTo(Math.min(...xs), 6);
  await page.keyboard.press('ArrowRight');
  const second = await state();
  expect(second.label).not.toBe(first.label);
  expect(second.x).toBeGreaterThanOrEqual(first.x);
  // The focused mark is announced (its label, and the tooltip, a live region, says the same) and drawn in the focus colour.
  expect(second.tip).toBe(second.label);
  expect(second.live).toBe('status');
  expect(second.outline).not.toBe('none');
  expect([second.inOrder, second.self]).toEqual([1, '0']);
  await page.keyboard.press('End');
  const last = await state();
  await page.keyboard.press('Home');
  const home = await state();
  expect(last.x).toBeGreaterThanOrEqual(home.x);
  expect(home.x).toBeCloseTo(Math.min(...xs), 6);
  expect(last.x).toBeCloseTo(Math.max(...xs), 6);
  await page.keyboard.press('ArrowLeft');
  expect((await state()).label).toBe(home.label);
  // Tab leaves the chart rather than walking its dots.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('[data-chart="gap"]') && document.activeElement?.hasAttribute('data-mark'))).toBeFalsy();
  await screenshot(page, 'keyboard-chart-focus');
  expect(consoleErrors).toEqual([]);
  await context.close();
});
