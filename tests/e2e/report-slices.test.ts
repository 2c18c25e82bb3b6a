/**
 * The Slices view (calibration by subgroup) on a report whose questions keep a category and a
 * popularity number: the table lists each slice with the numbers pipeline/slices.ts gives, marks
 * the small one, shows the test across slices and one diagram per slice; the column choice is
 * kept in the link; the page fits 390 px and 1280 px, light and dark, with no serious axe finding.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { elementShot, launchChromium, openPage, widthAt } from './chromium';
import { COLOUR_RULES, seriousViolations } from './axe-check';
import { layoutProblems, measure } from './layout-measure';
import { reportToJson } from '../../src/formats/report-export';
import { sampleReport } from '../unit/share/report-fixture';
import { sliceReport } from '../../src/pipeline/slices';
import { fmt } from '../../src/ui/report/format';
import type { ReportDocument } from '../../src/model/report';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

function slicedReport(): ReportDocument {
  const doc = sampleReport({ questions: 90 });
  doc.title = 'Sliced report';
  const names = ['history', 'science', 'geography'];
  doc.models[0].questions.forEach((q, i) => (q.fields = { category: i % 10 === 0 ? 'rare' : names[i % 3], s_pop: 2 * 10 ** (i % 5) + i }));
  return doc;
}

test('Slices: a table per category with the pipeline numbers, the small slice marked, diagrams, the test; 390 and 1280 px, light and dark, no axe finding', async () => {
  const doc = slicedReport();
  const expected = sliceReport(doc.models[0].questions, 'category', ['sem1', 'sem2', 'verbalized'], { bins: doc.settings.bins, seed: doc.settings.bootstrap.seed });
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'sliced.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await page.locator('[role="tab"][data-view="slices"]').click();
  await page.locator('[data-slices-table] tbody tr').first().waitFor({ timeout: 30_000 });
  // Computed in the worker: read once it has answered for the report as it now stands.
  await page.locator('[data-slices]:not([aria-busy="true"])').waitFor({ timeout: 60_000 });
  const rows = page.locator('[data-slices-table] tbody tr');
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-slice')))).toEqual(expected.slices.map((s) => s.value));
  for (const s of expected.slices) {
    const row = page.locator(`[data-slices-table] tr[data-slice="${s.value}"]`);
    expect(await row.getAttribute('data-small')).toBe(String(s.small));
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toBe(String(s.questions));
    expect(cells[1]).toBe(fmt(s.accuracy));
    expect(cells[2].startsWith(fmt(s.ece.sem1!))).toBe(true);
  }
  expect(await page.locator('tr[data-slice="rare"] .small-mark').count()).toBe(1);
  expect(await page.locator('[data-slice-diagrams] [data-chart="reliability"]').count()).toBe(expected.slices.length);
  expect(await page.locator('[data-slice-p="sem1"]').textContent()).toContain('p ');
  expect(page.url()).toContain('view=slices');

  // The popularity number: binned by decade, and the choice written into the link.
  await page.locator('[data-control="slice-column"]').selectOption('s_pop');
  await page.locator('[data-slices-table] tbody tr[data-slice="1000–10000"]').waitFor({ timeout: 30_000 });
  expect(page.url()).toContain('slice=s_pop');
  await page.locator('[data-control="slice-column"]').selectOption('category');
  await page.locator('[data-slices-table] tbody tr[data-slice="rare"]').waitFor({ timeout: 30_000 });

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1280]) {
      expect(await widthAt(page, width)).toBeLessThanOrEqual(width);
      expect(layoutProblems(await measure(page), width)).toEqual([]);
      // Dark follows light at each width: its pass runs the colour rules (COLOUR_RULES).
      expect(await seriousViolations(page, scheme === 'dark' ? COLOUR_RULES : undefined), `${width} px ${scheme}`).toEqual([]);
      await elementShot(page.locator('[data-slices]'), `report-slices-${width}-${scheme}`);
    }
  }
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});
