/**
 * One number, one interval (issue 24): each ECE on the report carries exactly one interval, the
 * document's eceInference interval, with its calibration test; no "debiased" estimate is shown;
 * the reliability diagrams draw the consistency band (in their legend) and mark bins under 10
 * questions; the regime bars' whiskers are the same method's; a report saved before the interval
 * was stored gets the same numbers computed from its rows when opened.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { elementShot, launchChromium, openPage, screenshot, widthAt } from './chromium';
import { demoDocument, openHome } from './report-fixture';
import { calibrationPOf, eceIntervalOf, fmtEceInterval, fmtP, headlineSignals } from '../../src/formats/headline-table';
import { reportToJson } from '../../src/formats/report-export';
import type { ReportDocument } from '../../src/model/report';
import { isProbabilitySignal } from '../../src/model/signals';

/** The signals whose ECE the headline shows: those that are probabilities (a score that is not has no raw ECE). */
const shownSignals = (doc: ReportDocument) => headlineSignals(doc.models).filter(isProbabilitySignal);

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Each headline ECE cell's intervals and p-values as the page shows them, by model and signal. */
async function headlineCells(page: Page, doc: ReportDocument) {
  const rows = page.locator('table[data-table="headline"] tbody tr');
  const out: { model: string; signal: string; intervals: string[]; p: string[] }[] = [];
  for (let i = 0; i < doc.models.length; i++) {
    for (const s of shownSignals(doc)) {
      const cell = rows.nth(i).locator(`td[data-ece="${s}"]`);
      out.push({ model: doc.models[i].model, signal: s, intervals: await cell.locator('[data-ece-interval]').allInnerTexts(), p: await cell.locator('[data-calibration-p]').allInnerTexts() });
    }
  }
  return out;
}

/** What the headline should show for this document: one interval and one p per ECE. */
function expectedCells(doc: ReportDocument) {
  return doc.models.flatMap((m) =>
    shownSignals(doc).map((s) => ({ model: m.model, signal: s, intervals: [fmtEceInterval(eceIntervalOf(m.metrics, s))], p: [`p ${fmtP(calibrationPOf(m.metrics, s))}`] })),
  );
}

test('the headline shows one interval per ECE, the document’s, with its p-value; no "debiased" anywhere; the diagrams’ legends name the band', async () => {
  const doc = demoDocument();
  const { page, context, consoleErrors, offLoopback } = await openHome(browser, inject('appUrl'));
  const cells = await headlineCells(page, doc);
  expect(cells).toEqual(expectedCells(doc));
  expect(cells.length).toBeGreaterThanOrEqual(2 * doc.models.length);
  // Nothing else in a cell looks like an interval: exactly one bracket pair per ECE cell.
  const brackets = await page.locator('table[data-table="headline"] td[data-ece]').evaluateAll((els) => els.map((e) => (e.textContent!.match(/\[/g) ?? []).length));
  expect(brackets.every((n) => n === 1)).toBe(true);
  expect(await page.locator('[data-report]').innerText()).not.toMatch(/debiased/i);
  expect(await page.locator('[data-interval-method]').innerText()).toMatch(/consistency-inversion/);

  // The reliability diagrams: the band drawn per non-empty bin and keyed in the legend; bins under 10 marked.
  const chart = page.locator('[data-chart="reliability"]').first();
  const sem1 = doc.models[0].metrics;
  const nonEmpty = sem1.signals.sem1!.bins.flatMap((b, i) => (b.count > 0 ? [i] : []));
  const boxes = await chart.locator('rect.consistency-box').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-band-bin')), Number(e.getAttribute('data-low')), Number(e.getAttribute('data-high'))]));
  expect(boxes).toEqual(sem1.consistencyBands!.sem1!.filter((b) => nonEmpty.includes(b.bin)).map((b) => [b.bin, b.lo, b.hi]));
  expect(await chart.locator('.legend').innerText()).toContain('consistency band (calibrated model, 95%)');
  const small = sem1.signals.sem1!.bins.flatMap((b, i) => (b.count > 0 && b.count < 10 ? [i] : []));
  expect(await chart.locator('circle.small-bin').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-bin'))))).toEqual(small);
  // The caption carries the same interval as the table.
  expect(await chart.locator('.caption').innerText()).toContain(fmtEceInterval(eceIntervalOf(sem1, 'sem1')));

  // The signal comparison's ECE column: the same interval.
  const cmpCell = page.locator('[data-comparison] table[data-table="signal-comparison"] tr[data-signal="sem2"] td[data-ece]').first();
  expect(await cmpCell.innerText()).toContain(fmtEceInterval(eceIntervalOf(doc.models[0].metrics, 'sem2')));

  // The regime bars' whiskers: each regime's interval of the same method.
  await page.locator('button[data-view="difficulty"]').click();
  const whiskers = page.locator('[data-chart="regime"]').first().locator('g.ci');
  await whiskers.first().waitFor({ state: 'attached' });
  await elementShot(page.locator('[data-chart="regime"]').first(), 'report-intervals-regimes-1280-light');
  const drawn = await whiskers.evaluateAll((els) => els.map((e) => [e.getAttribute('data-regime'), e.getAttribute('data-signal'), Number(e.getAttribute('data-low')), Number(e.getAttribute('data-high'))]));
  const byRegime = doc.models[0].metrics.byRegime;
  expect(drawn.length).toBeGreaterThan(0);
  for (const [regime, signal, lo, hi] of drawn) {
    expect([lo, hi]).toEqual(byRegime[regime as 'jensen'].eceInference![signal as 'sem1']!.interval);
  }
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('a report saved before the interval existed opens, and gets the same intervals computed from its rows', async () => {
  const doc = demoDocument();
  const old = structuredClone(doc);
  old.demo = false;
  for (const m of old.models) {
    delete m.metrics.eceInference;
    delete m.metrics.eceInferenceMethod;
    delete m.metrics.consistencyBands;
    for (const r of Object.values(m.metrics.byRegime)) delete r.eceInference;
  }
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(old)) });
  await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached' });
  await expect.poll(() => page.locator('table[data-table="headline"] [data-ece-interval]').count(), { timeout: 30_000 }).toBe(expectedCells(doc).length);
  expect(await headlineCells(page, doc)).toEqual(expectedCells(doc));
  expect(await page.locator('[data-interval-pending-note]').count()).toBe(0);
  expect(await page.locator('[data-chart="reliability"]').first().locator('rect.consistency-box').count()).toBeGreaterThan(0);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('the intervals, bands and small-bin marks at 1280 and 390 px, light and dark: shown, no sideways scroll (screenshots)', async () => {
  for (const scheme of ['light', 'dark'] as const) {
    const { page, context } = await openHome(browser, inject('appUrl'), scheme);
    await page.locator('input[data-signal="sem2"]').check();
    await screenshot(page, `report-intervals-1280-${scheme}`);
    await elementShot(page.locator('table[data-table="headline"]'), `report-intervals-headline-1280-${scheme}`);
    await elementShot(page.locator('[data-chart="reliability"]').nth(1), `report-intervals-diagram-1280-${scheme}`);
    // On a phone the intervals and p-values stay on the page, which does not scroll sideways.
    expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
    await expect.poll(() => page.locator('table[data-table="headline"] [data-ece-interval]').first().isVisible()).toBe(true);
    await screenshot(page, `report-intervals-390-${scheme}`);
    await elementShot(page.locator('[data-chart="reliability"]').first(), `report-intervals-diagram-390-${scheme}`);
    await elementShot(page.locator('table[data-table="headline"] tbody tr').first(), `report-intervals-headline-390-${scheme}`);
    await context.close();
  }
});
