/**
 * Every page of the app (page-tour.ts), walked at each width and in each colour scheme it is checked in, each page
 * checked on the way for its layout (layout-measure.ts) and, where listed, by axe-core
 * (axe-check.ts). One walk serves both checks: a walk is most of their time.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { tourAll } from './page-tour';
import { layoutProblems, measure } from './layout-measure';
import { seriousViolations, type Finding } from './axe-check';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const SHOTS = new Set(['home calibration', 'home difficulty', 'home questions', 'wizard dataset', 'classroom', 'glossary']);

// Both widths for the layout, in light and dark at 1280 px and in dark at a phone's width (the
// colour scheme changes colours, not sizes: a fourth walk, 390 px in light, measured the same
// boxes again; the screenshots, test-results/screenshots/layout-*, are for looking at); axe on every
// walk (the compact header, its menu opened too, the headline cards, the charts' larger text).
const RUNS = [
  { width: 1280, scheme: 'light', axe: true },
  { width: 1280, scheme: 'dark', axe: true },
  { width: 390, scheme: 'dark', axe: true },
] as const;

interface Walk {
  pages: string[];
  layout: Record<string, string[]>;
  axe: Record<string, Finding[]>;
  consoleErrors: string[];
}

for (const { width, scheme, axe } of RUNS) {
  describe(`at ${width} px (${scheme})`, () => {
    let walk: Walk;
    beforeAll(async () => {
      const { page, context, consoleErrors } = await openPage(browser);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      const layout: Record<string, string[]> = {};
      const found: Record<string, Finding[]> = {};
      const { pages, failure } = await tourAll(page, inject('appUrl'), async (name) => {
        // Measured before axe adds its script to the page.
        const problems = layoutProblems(await measure(page), width);
        if (problems.length) layout[name] = problems;
        if (SHOTS.has(name)) await screenshot(page, `layout-${width}-${scheme}-${name.replace(/\s+/g, '-')}`);
        if (axe) {
          const v = await seriousViolations(page);
          if (v.length) found[name] = v;
        }
      });
      if (failure) {
        layout.tour = [failure];
        found.tour = [{ id: 'tour', impact: null, help: failure, nodes: [] }];
      }
      if (axe && width < 640) {
        await page.goto(inject('appUrl'));
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Classroom' }).waitFor();
        const v = await seriousViolations(page);
        if (v.length) found['menu open'] = v;
      }
      walk = { pages, layout, axe: found, consoleErrors };
      await context.close();
    });

    test('every page scrolls no sideways, its charts keep a bounded size, no text renders under 11 px and no sentence is split into flex items', () => {
      expect(walk.pages.length).toBeGreaterThanOrEqual(15);
      expect(walk.layout).toEqual({});
      expect(walk.consoleErrors).toEqual([]);
    });

    if (axe) {
      test('axe finds no serious or critical violation on any page', () => {
        // The tour reached every page, the offline viewer included.
        expect(walk.pages).toEqual(expect.arrayContaining(['home calibration', 'wizard review', 'classroom', 'glossary', 'shared questions', 'offline calibration']));
        expect(walk.axe).toEqual({});
        expect(walk.consoleErrors).toEqual([]);
      });
    }
  });
}

test('at 390 px the header is one compact row; its links fold under a Menu button that opens and closes', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const page = await context.newPage();
  await page.goto(inject('appUrl'));
  const header = page.locator('header.shell-header');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.waitFor();
  expect((await header.boundingBox())!.height).toBeLessThan(64);
  expect(await nav.isVisible()).toBe(false);
  expect(await menu.getAttribute('aria-expanded')).toBe('false');
  await menu.click();
  expect(await menu.getAttribute('aria-expanded')).toBe('true');
  await nav.getByRole('link', { name: 'Classroom' }).click();
  await page.locator('[data-page="classroom"]').waitFor();
  // Choosing a page folds the menu again.
  expect(await nav.isVisible()).toBe(false);
  expect(await menu.getAttribute('aria-expanded')).toBe('false');
  await context.close();

  const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const wpage = await wide.newPage();
  await wpage.goto(inject('appUrl'));
  await wpage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).waitFor();
  expect(await wpage.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
  await wide.close();
});
