/**
 * The Uncertainty methods view: on a multiple-choice report scored with every signal (the paper's,
 * stated and logprob, and the black-box uncertainty scores of issue 29), opened from a file, the
 * tab shows one table per model whose cells are the document's numbers (raw ECE for probabilities
 * only, recalibrated ECE with its interval, AUROC, PRR, AUARC), the headline table shows a dash for
 * the raw ECE of a score that is not a probability, the tab is named in the URL, a report without
 * these metrics does not offer it, axe finds no serious or critical violation in it, and it is
 * photographed at 390 and 1280 px in light and dark.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { afterLayout, elementShot, launchChromium, openPage } from './chromium';
import { seriousViolations } from './axe-check';
import { toMcQuestion } from '../../src/multiple-choice/prompt';
import { mcSemEceQuestion } from '../../src/multiple-choice/sem-ece-question';
import { mcSemEceReport } from '../../src/multiple-choice/sem-ece-report';
import { buildReport, importedSettings } from '../../src/pipeline/score-documents';
import { reportToJson } from '../../src/formats/report-export';
import { eceIntervalOf, fmtEceInterval } from '../../src/formats/headline-table';
import type { ReportDocument } from '../../src/model/report';
import { BLACK_BOX_SIGNAL_NAMES, isProbabilitySignal, SIGNAL_LABEL, SIGNAL_ORDER } from '../../src/model/signals';
import { fmt } from '../../src/ui/report/format';
import { recalibratedComparisonText } from '../../src/ui/report/recalibrated-comparison-text';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Question i: 10 samples, the gold option chosen (i·7 mod 10) + 1 times, with a stated probability that varies by question. */
function mcRows(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const q = toMcQuestion({ id: `mc${i + 1}`, question: `Which option is right in question ${i + 1}?`, answer: 'A', options: ['a', 'b', 'c', 'd'] });
    if (!q.ok) throw new Error(q.error.message);
    const a = ((i * 7) % 10) + 1;
    const p = 40 + ((i * 13) % 60);
    const replies = Array.from({ length: 10 }, (_, j) => `{"answer": "${j < a ? 'A' : j % 2 ? 'C' : 'B'}", "probability": ${p}}`);
    return mcSemEceQuestion({ question: q.value, replies }, 'mock');
  });
}

function blackBoxReport(): ReportDocument {
  return buildReport([mcSemEceReport(mcRows(40), 'mock/one', { B: 200 }), mcSemEceReport(mcRows(24), 'mock/two', { B: 200 })], {
    title: 'Report scored with the black-box uncertainty signals',
    dataset: { name: 'mc fixture' },
    settings: importedSettings({ B: 200 }, 10),
  });
}

async function openDocument(doc: ReportDocument, width: number, colorScheme: 'light' | 'dark') {
  const opened = await openPage(browser);
  await opened.page.setViewportSize({ width, height: 900 });
  await opened.page.emulateMedia({ colorScheme });
  await opened.page.goto(`${inject('appUrl')}#/open`);
  await opened.page.locator('input[data-control="report-file"]').setInputFiles({ name: 'r.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await opened.page.locator('table[data-table="headline"]').waitFor({ timeout: 60_000 });
  return opened;
}

async function openTab(page: Page) {
  await page.locator('[role="tab"][data-view="uncertainty"]').click();
  await page.locator('[data-panel="uncertainty-methods"] table[data-uncertainty-table]').first().waitFor({ timeout: 60_000 });
}

const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').replace(/\s+/g, ' ').trim();

test("the tab's tables hold the document's numbers; the headline shows no raw ECE for a score that is not a probability", async () => {
  const doc = blackBoxReport();
  for (const s of BLACK_BOX_SIGNAL_NAMES) expect(doc.models[0].metrics.signals[s], s).toBeDefined();
  const { page, context, consoleErrors, offLoopback } = await openDocument(doc, 1280, 'light');

  // Headline: no raw-ECE column where the signal is not a probability; the note under the table names
  // each such signal, linked to its glossary entry, and sends the reader to this tab.
  for (const m of doc.models) {
    for (const s of BLACK_BOX_SIGNAL_NAMES) expect(await page.locator(`table[data-table="headline"] tr[data-model="${m.model}"] td[data-ece="${s}"]`).count()).toBe(0);
  }
  const note = page.locator('[data-not-probability-note]');
  expect(await note.textContent()).toMatch(/Not probabilities, so no raw ECE/);
  for (const s of BLACK_BOX_SIGNAL_NAMES) expect(await note.locator(`a[data-term="signal-${s}"]`).count()).toBe(1);

  await openTab(page);
  expect(page.url()).toContain('view=uncertainty');
  for (const m of doc.models) {
    const rec = m.metrics.recalibration!;
    const table = `[data-uncertainty-table="${m.model}"]`;
    expect(await text(page, `[data-uncertainty-caption="${m.model}"]`)).toContain(`seed ${rec.seed}`);
    expect(await page.getByRole('table', { name: `${m.model}: raw against recalibrated ECE (maps' seed ${rec.seed}), and ranking` }).count()).toBe(1);
    const scored = SIGNAL_ORDER.filter((s) => m.metrics.signals[s]);
    expect(await page.locator(`${table} tbody tr`).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-signal')))).toEqual(scored);
    for (const s of scored) {
      const row = `${table} tr[data-signal="${s}"]`;
      const sm = m.metrics.signals[s]!;
      expect(await text(page, `${row} td[data-cell="probability"]`)).toBe(isProbabilitySignal(s) ? 'yes' : 'no');
      expect(await text(page, `${row} td[data-cell="raw"]`)).toBe(isProbabilitySignal(s) ? `${fmt(sm.ece)} ${fmtEceInterval(eceIntervalOf(m.metrics, s))}` : '—');
      for (const method of ['isotonic', 'platt'] as const) {
        const r = rec[method][s]!;
        expect(Number(await page.locator(`${row} td[data-cell="${method}"]`).getAttribute('data-value'))).toBe(r.ece);
        expect(await text(page, `${row} td[data-cell="${method}"]`)).toBe(`${fmt(r.ece)} ${fmtEceInterval(r.interval)}`);
      }
      expect(await text(page, `${row} td[data-cell="auroc"]`)).toBe(fmt(sm.auroc));
      expect(await text(page, `${row} td[data-cell="prr"]`)).toBe(fmt(m.metrics.rejection![s]!.prr));
      expect(await text(page, `${row} td[data-cell="auarc"]`)).toBe(fmt(m.metrics.rejection![s]!.auarc));
    }
    for (const s of BLACK_BOX_SIGNAL_NAMES) expect(await page.locator(`${table} tr[data-signal="${s}"] th a[data-term="signal-${s}"]`).count()).toBe(1);
    // Under the table: the comparison after recalibration, every signal in it, in the document's words and with its named best (or none).
    const after = recalibratedComparisonText(m)!;
    expect(m.metrics.recalibratedComparison!.compared).toEqual(expect.arrayContaining([...BLACK_BOX_SIGNAL_NAMES.filter((s) => m.metrics.signals[s])]));
    const sentence = page.locator(`[data-recalibrated-comparison="${m.model}"]`);
    expect(await text(page, `[data-recalibrated-comparison="${m.model}"]`)).toBe(after.text);
    expect(await sentence.getAttribute('data-named')).toBe(after.named);
    expect(after.text).toMatch(after.named ? new RegExp(`^${SIGNAL_LABEL[after.named].replace(/[()]/g, '\\$&')} is best calibrated after the cross-fitted isotonic map`) : /^No signal is named best calibrated after the cross-fitted isotonic map/);
  }
  expect(await seriousViolations(page)).toEqual([]);
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('a report without recalibrated ECE or PRR does not offer the tab, even when the link names it', async () => {
  const doc = blackBoxReport();
  for (const m of doc.models) {
    delete m.metrics.recalibration;
    delete m.metrics.rejection;
  }
  const { page, context, consoleErrors } = await openDocument(doc, 1280, 'light');
  expect(await page.locator('[role="tab"][data-view="calibration"]').count()).toBe(1);
  expect(await page.locator('[role="tab"][data-view="uncertainty"]').count()).toBe(0);
  await page.evaluate(() => {
    location.hash = `${location.hash.split('?')[0]}?view=uncertainty`;
  });
  await expect.poll(() => page.locator('[role="tab"][data-view="calibration"]').getAttribute('aria-selected')).toBe('true');
  expect(await page.locator('[data-panel="uncertainty-methods"]').count()).toBe(0);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('the view at 390 and 1280 px, light and dark: it fits the phone, its tables scroll in their own boxes', async () => {
  const doc = blackBoxReport();
  for (const width of [390, 1280]) {
    // One page per width, switched to dark where it stands: the theme is CSS alone (theme.css), so
    // the page a fresh load in dark draws is this one, and each scheme's boxes are measured.
    const { page, context, consoleErrors } = await openDocument(doc, width, 'light');
    await openTab(page);
    for (const scheme of ['light', 'dark'] as const) {
      if (scheme === 'dark') {
        await page.emulateMedia({ colorScheme: scheme });
        await afterLayout(page);
      }
      const panel = page.locator('[data-panel="uncertainty-methods"]');
      const box = await panel.evaluate((e) => ({ right: e.getBoundingClientRect().right, scroll: e.scrollWidth, client: e.clientWidth }));
      expect(box.right).toBeLessThanOrEqual(width);
      expect(box.scroll).toBeLessThanOrEqual(box.client);
      // Each signal's row header keeps its full name for a screen reader; on a phone the short name is
      // what is seen, on one line (the long names wrapped to three).
      const m = doc.models[0];
      for (const s of SIGNAL_ORDER.filter((x) => m.metrics.signals[x])) {
        const header = panel.locator(`[data-uncertainty-table="${m.model}"] tr[data-signal="${s}"] th`);
        expect(await panel.getByRole('rowheader', { name: SIGNAL_LABEL[s], exact: true }).count(), s).toBeGreaterThanOrEqual(1);
        expect(await header.locator('.name-short').isVisible(), s).toBe(width === 390);
        if (width === 390) {
          const lines = await header.evaluate((th) => {
            const short = th.querySelector('.name-short')!;
            return short.getClientRects().length;
          });
          expect(lines, s).toBe(1);
        }
      }
      await elementShot(panel, `report-uncertainty-methods-${width}-${scheme}`);
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  }
});
