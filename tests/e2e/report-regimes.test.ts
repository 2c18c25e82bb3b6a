import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { openHome } from './report-fixture';
import { chartColours, missingFromLegend } from './chart-colours';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('regime bars on bins under 10 questions keep their signal colour, drawn open and keyed; every colour drawn is in the legend (light and dark)', async () => {
  for (const scheme of ['light', 'dark'] as const) {
    const { page, context } = await openHome(browser, inject('appUrl'), scheme);
    await page.locator('[data-view="difficulty"]').click();
    const charts = page.locator('[data-chart="regime"]');
    await charts.first().locator('rect.bar').first().waitFor({ timeout: 60_000 });
    const n = await charts.count();
    expect(n).toBeGreaterThan(0);
    let open = 0;
    for (let i = 0; i < n; i++) {
      const chart = charts.nth(i);
      const c = await chartColours(chart);
      expect([...missingFromLegend(c), ...c.blended], `${scheme} regime chart ${i}`).toEqual([]);
      // An open bar's outline is its signal's colour, the colour of that signal's legend marker.
      const bars = await chart.locator('rect.bar[data-too-few="true"]').evaluateAll((rs) => rs.map((r) => ({ stroke: getComputedStyle(r).stroke, fillOpacity: getComputedStyle(r).fillOpacity })));
      for (const b of bars) {
        expect(b.stroke).not.toBe('none');
        expect(Number(b.fillOpacity)).toBe(0);
      }
      open += bars.length;
      if (bars.length) await expect.poll(() => chart.locator('.legend').textContent()).toContain('open bar: rests on bins <10');
    }
    // The 60-question demo has small regimes: some bars are open, so the key above is checked.
    expect(open).toBeGreaterThan(0);
    await screenshot(page, `regimes-${scheme}`);
    await context.close();
  }
});
