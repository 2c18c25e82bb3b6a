/**
 * Every page of the app (page-tour.ts), walked at each width and checked in each colour scheme
 * listed for it, each page checked on the way for its layout (layout-measure.ts) and by axe-core
 * (axe-check.ts). One walk serves all its checks: a walk is most of their time.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { afterLayout, launchChromium, openPage, screenshot } from './chromium';
import { tourAll } from './page-tour';
import { layoutProblems, measure } from './layout-measure';
import { COLOUR_RULES, seriousViolations, type Finding } from './axe-check';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const SHOTS = new Set(['home calibration', 'home difficulty', 'home questions', 'wizard dataset', 'classroom', 'glossary']);

type Scheme = 'light' | 'dark';

// Both widths for the layout, in light and dark at 1280 px and in dark at a phone's width (the
// colour scheme changes colours, not sizes: a fourth walk, 390 px in light, measured the same
// boxes again; the screenshots, test-results/screenshots/layout-*, are for looking at); axe in each
// (the compact header, its menu opened too, the headline cards, the charts' larger text).
//
// Light and dark at 1280 px share one walk: the theme is CSS alone (theme.css's custom properties
// under prefers-color-scheme, with no colour transitions; no script reads the scheme), so a page
// switched to dark where it stands is the page a walk in dark reaches there, and each page is
// measured and audited in both. A walk (loading, computing and drawing every page) was about half
// of a walk's time with axe. The phone width keeps a walk of its own, so its clicks are made at
// that width.
const WALKS: { width: number; schemes: Scheme[] }[] = [
  { width: 1280, schemes: ['light', 'dark'] },
  { width: 390, schemes: ['dark'] },
];

interface Checked {
  layout: Record<string, string[]>;
  axe: Record<string, Finding[]>;
}

interface Walk {
  pages: string[];
  /** What each colour scheme's checks found, page by page. */
  schemes: Partial<Record<Scheme, Checked>>;
  consoleErrors: string[];
}

/** Walks every page at `width`, checking each in every scheme of `schemes`, the first one the walk's own. */
async function walkAt(width: number, schemes: Scheme[]): Promise<Walk> {
  const { page, context, consoleErrors } = await openPage(browser);
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme: schemes[0] });
  const found: Walk['schemes'] = Object.fromEntries(schemes.map((scheme) => [scheme, { layout: {}, axe: {} }]));
  const { pages, failure } = await tourAll(page, inject('appUrl'), async (name) => {
    for (const [i, scheme] of schemes.entries()) {
      if (i > 0) {
        await page.emulateMedia({ colorScheme: scheme });
        await afterLayout(page);
      }
      const { layout, axe } = found[scheme]!;
      const problems = layoutProblems(await measure(page), width);
      if (problems.length) layout[name] = problems;
      if (SHOTS.has(name)) await screenshot(page, `layout-${width}-${scheme}-${name.replace(/\s+/g, '-')}`);
      // A scheme switched to where the page stands: its axe pass runs the colour rules (COLOUR_RULES).
      const v = await seriousViolations(page, i > 0 ? COLOUR_RULES : undefined);
      if (v.length) axe[name] = v;
    }
    // The walk goes on in its own scheme.
    if (schemes.length > 1) await page.emulateMedia({ colorScheme: schemes[0] });
  });
  for (const { layout, axe } of Object.values(found)) {
    if (failure) {
      layout.tour = [failure];
      axe.tour = [{ id: 'tour', impact: null, help: failure, nodes: [] }];
    }
  }
  if (width < 640) {
    await page.goto(inject('appUrl'));
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Classroom' }).waitFor();
    for (const [i, scheme] of schemes.entries()) {
      if (i > 0) await page.emulateMedia({ colorScheme: scheme });
      const v = await seriousViolations(page, i > 0 ? COLOUR_RULES : undefined);
      if (v.length) found[scheme]!.axe['menu open'] = v;
    }
  }
  await context.close();
  return { pages, schemes: found, consoleErrors };
}

/** Each width's walk, started by the first of its schemes' checks to need it. */
const walks = new Map<number, Promise<Walk>>();

for (const { width, schemes } of WALKS) {
  for (const scheme of schemes) {
    describe(`at ${width} px (${scheme})`, () => {
      let walk: Walk;
      let checked: Checked;
      beforeAll(async () => {
        if (!walks.has(width)) walks.set(width, walkAt(width, schemes));
        walk = await walks.get(width)!;
        checked = walk.schemes[scheme]!;
      });

      test('every page scrolls no sideways, its charts keep a bounded size, no text renders under 11 px and no sentence is split into flex items', () => {
        expect(walk.pages.length).toBeGreaterThanOrEqual(15);
        expect(checked.layout).toEqual({});
        expect(walk.consoleErrors).toEqual([]);
      });

      test('axe finds no serious or critical violation on any page', () => {
        // The tour reached every page, the offline viewer included.
        expect(walk.pages).toEqual(expect.arrayContaining(['home calibration', 'wizard review', 'classroom', 'glossary', 'shared questions', 'offline calibration']));
        expect(checked.axe).toEqual({});
        expect(walk.consoleErrors).toEqual([]);
      });
    });
  }
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
