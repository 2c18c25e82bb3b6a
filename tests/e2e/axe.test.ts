import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage } from './chromium';
import { tourAll } from './page-tour';

/** axe-core's browser build, injected into each page (it is a devDependency, never shipped). */
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules, and best practices). */
async function seriousViolations(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
}

const RUNS = [
  { scheme: 'light', width: 1280 },
  { scheme: 'dark', width: 1280 },
  // A phone's width: the compact header (its menu opened too), the headline cards, the charts' larger text.
  { scheme: 'dark', width: 390 },
] as const;

for (const { scheme, width } of RUNS) {
  test(`axe finds no serious or critical violation on any page (${scheme} mode, ${width} px)`, { timeout: 240_000 }, async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    const found: Record<string, Finding[]> = {};
    const { pages, failure } = await tourAll(page, inject('appUrl'), async (name) => {
      const v = await seriousViolations(page);
      if (v.length) found[name] = v;
    });
    if (failure) found.tour = [{ id: 'tour', impact: null, help: failure, nodes: [] }];
    if (width < 640) {
      await page.goto(inject('appUrl'));
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Classroom' }).waitFor();
      const v = await seriousViolations(page);
      if (v.length) found['menu open'] = v;
    }
    // The tour reached every page, the offline viewer included.
    expect(pages).toEqual(expect.arrayContaining(['home calibration', 'wizard review', 'classroom', 'glossary', 'shared questions', 'offline calibration']));
    expect(found).toEqual({});
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
}
