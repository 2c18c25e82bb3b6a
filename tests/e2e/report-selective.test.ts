/**
 * The selective-prediction view: on a report whose Sem2 confidences are the hand-computed
 * fixture of tests/unit/core/abstention.test.ts, choosing a target shows the threshold, coverage,
 * error and SimpleQA counts computed there by hand; the threshold downloads as JSON that the
 * schema reads back and the view reopens; the curves' areas are the report's stored AURCs
 * (also on the demo report); it is reached by keyboard, fits 390 px in light and dark mode, and
 * axe finds no serious or critical violation in it.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { demoDocument } from './report-fixture';
import { reportToJson } from '../../src/formats/report-export';
import { embedReport } from '../../src/export/embed';
import { parseThresholdDocument } from '../../src/formats/abstention-threshold-schema';
import type { ReportDocument, ReportQuestion } from '../../src/model/report';
import { modelMetrics } from '../../src/pipeline/score';
import { builtAppDir } from './built-app';

let browser: Browser;
const dir = mkdtempSync(path.join(tmpdir(), 'semece-selective-'));
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const conf = [0.9, 0.3, 0.9, 0.7, 0.8, 0.6, 0.6, 0.8, 0.5, 0.95, 0.6, 0.4];
const y = [1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0];

/** The demo document with one model whose 12 questions carry the fixture as Sem2 (row 10 declined). */
function fixtureDocument(): ReportDocument {
  const doc = demoDocument();
  const template = doc.models[0].questions[0];
  const questions: ReportQuestion[] = conf.map((c, i) => ({
    ...template,
    id: `fx${i}`,
    question: `Fixture question ${i}`,
    sem2: c,
    sem1: Math.min(1, c + 0.05),
    verbalized: 0.9,
    correct: y[i] as 0 | 1,
    grade: y[i] ? 'CORRECT' : i === 10 ? 'NOT_ATTEMPTED' : 'INCORRECT',
    overridden: undefined,
  }));
  const metrics = modelMetrics(questions, { excluded: 0 }, { B: doc.settings.bootstrap.B, bootstrapSeed: doc.settings.bootstrap.seed, bins: doc.settings.bins });
  doc.models = [{ model: 'fixture/model', metrics, questions, excludedQuestions: [] }];
  doc.title = 'Selective fixture';
  doc.demo = false;
  doc.dataset = { name: 'fixture', questions: 12 };
  return doc;
}

async function openDocument(doc: ReportDocument, width: number, colorScheme: 'light' | 'dark' = 'light') {
  const opened = await openPage(browser);
  await opened.page.setViewportSize({ width, height: 900 });
  await opened.page.emulateMedia({ colorScheme });
  await opened.page.goto(`${inject('appUrl')}#/open`);
  await opened.page.locator('input[data-control="report-file"]').setInputFiles({ name: 'r.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await opened.page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached', timeout: 60_000 });
  return opened;
}

async function openSelectiveTab(page: Page) {
  await page.locator('[data-view="selective"]').click();
  await page.locator('[data-panel="selective"] [data-chart="risk-coverage"]').first().waitFor();
}

/** axe-core's serious and critical findings inside the selective panel (axe is a devDependency, injected here only). */
async function panelViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Element, opts: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document.querySelector('[data-panel="selective"]')!, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Every AURC row: the stored value and the area of the curve drawn. */
async function aurcRows(page: Page) {
  return page.locator('table[data-table="aurc"] tr[data-signal]').evaluateAll((rows) =>
    rows.map((r) => ({ signal: r.getAttribute('data-signal'), stored: r.getAttribute('data-aurc'), area: r.getAttribute('data-area') })),
  );
}

test('choose a target: the hand-computed threshold, coverage, error and counts; download the threshold and open it again', async () => {
  const { page, context, consoleErrors, offLoopback } = await openDocument(fixtureDocument(), 1280);
  await openSelectiveTab(page);
  const panel = page.locator('[data-panel="selective"]');

  // The curves are the AURCs' curves: their areas equal the stored numbers, written in full.
  const rows = await aurcRows(page);
  expect(rows.map((r) => r.signal)).toEqual(['sem1', 'sem2', 'verbalized']);
  for (const r of rows) expect(r.area, r.signal!).toBe(r.stored);
  expect(await panel.locator('[data-aurc-mismatch]').count()).toBe(0);
  expect(await panel.locator('[data-chart="risk-coverage"] [data-series="sem2"] path').getAttribute('data-points')).toBe('12');

  // The split rule is stated in the view.
  expect(await panel.locator('[data-split-rule]').textContent()).toMatch(/default_rng\(seed\)\.permutation\(N\)[\s\S]*Wilson/);

  await panel.locator('[data-control="abstain-signal"]').selectOption('sem2');
  await panel.locator('[data-control="abstain-target"]').fill('20');
  await expect.poll(() => panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.6');
  expect(await panel.locator('[data-threshold] strong').textContent()).toBe('0.6000');
  const held = (count: string) => panel.locator(`[data-table="abstain-counts"] td[data-half="evaluation"][data-count="${count}"]`).textContent();
  expect([await held('correct'), await held('incorrect'), await held('not-attempted'), await held('abstained'), await held('declined')]).toEqual(['2', '1', '3', '2', '1']);
  expect(await panel.locator('[data-figure="coverage"] dd').textContent()).toBe('66.7% [30.0%, 90.3%] (4 of 6 answered)');
  expect(await panel.locator('[data-figure="error"] dd').textContent()).toBe('50.0% [15.0%, 85.0%] (2 of 4 not correct)');
  // The threshold's point sits on the Sem2 curve of all questions: 9 of 12 have Sem2 ≥ 0.6.
  const mark = panel.locator('[data-threshold-mark="sem2"]');
  expect(await mark.count()).toBe(1);
  expect(await mark.getAttribute('aria-label')).toMatch(/75\.0% answered, error 33\.3%/);
  await screenshot(page, 'report-selective-1280');
  await panel.screenshot({ path: path.resolve('test-results/screenshots/report-selective-panel-1280.png') });

  // Download: the JSON is the small document, read back by the schema.
  // By keyboard (focus and Enter): a pointer click below the fold can land while the page still moves.
  const downloading = page.waitForEvent('download');
  await panel.locator('[data-action="download-threshold"]').focus();
  await page.keyboard.press('Enter');
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('threshold-fixture-model-sem2.json');
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  const parsed = parseThresholdDocument(readFileSync(file, 'utf8'));
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  const d = parsed.value;
  expect([d.model, d.signal, d.threshold, d.target, d.split.seed, d.report.title]).toEqual(['fixture/model', 'sem2', 0.6, 0.2, 0, 'Selective fixture']);
  expect([d.evaluation.correct, d.evaluation.incorrect, d.evaluation.notAttempted, d.evaluation.coverage[0], d.evaluation.error[0]]).toEqual([2, 1, 3, 4 / 6, 0.5]);

  // Another target moves the threshold; opening the file brings its settings back.
  await panel.locator('[data-control="abstain-target"]').fill('10');
  await expect.poll(() => panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.9');
  await panel.locator('[data-control="threshold-file"]').setInputFiles(file);
  await panel.locator('[data-threshold-loaded="applied"]').waitFor();
  expect(await panel.locator('[data-threshold-loaded]').textContent()).toMatch(/same threshold/);
  expect(await panel.locator('[data-control="abstain-target"]').inputValue()).toBe('20');
  expect(await panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.6');

  // A file that is not a threshold says so.
  await panel.locator('[data-control="threshold-file"]').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"semece-abstention-threshold","version":1,"target":3}') });
  expect(await panel.locator('[data-threshold-load-error]').textContent()).toMatch(/^bad\.json: /);

  // A target outside 0–100 is refused with a message.
  await panel.locator('[data-control="abstain-target"]').fill('150');
  expect(await panel.locator('[data-abstain-error]').textContent()).toMatch(/from 0 to 100/);

  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('the demo report: every curve’s area is the stored AURC; the view is reached by keyboard; 390 px in light and dark mode', async () => {
  for (const scheme of ['light', 'dark'] as const) {
    const demo = demoDocument();
    demo.demo = false;
    const { page, context, consoleErrors } = await openDocument(demo, 390, scheme);
    // Keyboard: the selected tab, then arrow keys to the last tab (the selective view).
    await page.locator('[data-view="calibration"]').focus();
    await page.keyboard.press('End');
    await page.locator('[data-panel="selective"]').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-view'))).toBe('selective');
    // Tab on from the tab list reaches the abstention controls and the download button.
    const reached = new Set<string>();
    for (let i = 0; i < 40 && !reached.has('download-threshold'); i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => document.activeElement?.getAttribute('data-control') ?? document.activeElement?.getAttribute('data-action') ?? '');
      if (at) reached.add(at);
    }
    for (const c of ['abstain-signal', 'abstain-target', 'abstain-seed', 'download-threshold']) expect(reached, c).toContain(c);

    const rows = await aurcRows(page);
    expect(rows.length).toBeGreaterThanOrEqual(demo.models.length * 3);
    for (const r of rows) expect(r.area, r.signal!).toBe(r.stored);
    // The page settles its narrow layout (the headline table's cards) after drawing: poll.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const panelBox = await page.locator('[data-panel="selective"]').evaluate((e) => ({ right: e.getBoundingClientRect().right, scroll: e.scrollWidth, client: e.clientWidth }));
    expect(panelBox.right).toBeLessThanOrEqual(390);
    expect(panelBox.scroll).toBeLessThanOrEqual(panelBox.client);
    const box = (await page.locator('[data-chart="risk-coverage"]').first().boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, `report-selective-390-${scheme}`);
    // Under the sticky navigation an element's own screenshot shows the bar over it: scroll it to the middle first.
    for (const [part, selector] of [['chart', '[data-chart="risk-coverage"]'], ['abstain', '[data-abstention]']] as const) {
      const el = page.locator(selector).first();
      await el.evaluate((e) => e.scrollIntoView({ block: 'center' }));
      await el.screenshot({ path: path.resolve(`test-results/screenshots/report-selective-${part}-390-${scheme}.png`) });
    }
    expect(await panelViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }
});

test('the offline HTML report has the view too: from file://, the same threshold, and a threshold file opens', async () => {
  const template = readFileSync(path.join(builtAppDir(), 'report-viewer.html'), 'utf8');
  const file = path.join(dir, 'report.html');
  writeFileSync(file, embedReport(template, fixtureDocument()).html);
  const { page, context, consoleErrors } = await openPage(browser);
  await context.setOffline(true);
  await page.goto(pathToFileURL(file).href);
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  await openSelectiveTab(page);
  const panel = page.locator('[data-panel="selective"]');
  await panel.locator('[data-control="abstain-signal"]').selectOption('sem2');
  await panel.locator('[data-control="abstain-target"]').fill('20');
  await expect.poll(() => panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.6');
  const downloading = page.waitForEvent('download');
  await panel.locator('[data-action="download-threshold"]').focus();
  await page.keyboard.press('Enter');
  const saved = path.join(dir, 'offline-threshold.json');
  await (await downloading).saveAs(saved);
  await panel.locator('[data-control="abstain-target"]').fill('10');
  await panel.locator('[data-control="threshold-file"]').setInputFiles(saved);
  await panel.locator('[data-threshold-loaded="applied"]').waitFor();
  expect(await panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.6');
  // A target whose percentage is not exact in binary (0.07 × 100 = 7.000000000000001) reads back as 7.
  await panel.locator('[data-control="abstain-target"]').fill('7');
  const downloading7 = page.waitForEvent('download');
  await panel.locator('[data-action="download-threshold"]').focus();
  await page.keyboard.press('Enter');
  const saved7 = path.join(dir, 'offline-threshold-7.json');
  await (await downloading7).saveAs(saved7);
  expect(JSON.parse(readFileSync(saved7, 'utf8')).target).toBe(0.07);
  await panel.locator('[data-control="abstain-target"]').fill('50');
  await panel.locator('[data-control="threshold-file"]').setInputFiles(saved7);
  await expect.poll(() => panel.locator('[data-control="abstain-target"]').inputValue()).toBe('7');
  expect(await panel.locator('[data-threshold-loaded]').textContent()).toMatch(/same threshold/);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a report whose stored AURC is not its curve’s area says so; overriding a grade does not, once its recompute is done', async () => {
  const doc = fixtureDocument();
  const sem1 = doc.models[0].metrics.signals.sem1!;
  const edited = { ...doc, models: [{ ...doc.models[0], metrics: { ...doc.models[0].metrics, signals: { ...doc.models[0].metrics.signals, sem1: { ...sem1, aurc: sem1.aurc + 0.125 } } } }] };
  const { page, context, consoleErrors } = await openDocument(edited, 1280);
  await openSelectiveTab(page);
  const panel = page.locator('[data-panel="selective"]');
  expect(await panel.locator('[data-aurc-mismatch]').evaluateAll((ps) => ps.map((p) => p.getAttribute('data-aurc-mismatch')))).toEqual(['sem1']);
  await context.close();

  // The untouched report, a grade overridden: the rows change at once and the stored AURCs follow from the worker.
  const opened = await openDocument(doc, 1280);
  const target = doc.models[0].questions[0];
  await opened.page.locator('button[data-view="questions"]').click();
  await opened.page.locator(`[data-table="questions"] tr[data-id="${target.id}"] button.open`).click();
  await opened.page.locator(`[data-drill="${target.id}"] select[data-control="grade"]`).selectOption(target.correct ? 'INCORRECT' : 'CORRECT');
  await openSelectiveTab(opened.page);
  const after = opened.page.locator('[data-panel="selective"]');
  // At any moment, recomputing or done, no note: during the recompute the panel knows why they differ.
  expect(await after.locator('[data-aurc-mismatch]').count()).toBe(0);
  await opened.page.locator('[data-recomputing="false"]').waitFor({ state: 'attached' });
  expect(await after.locator('[data-aurc-mismatch]').count()).toBe(0);
  const rows = await aurcRows(opened.page);
  for (const r of rows) expect(r.area, r.signal!).toBe(r.stored);
  expect([...consoleErrors, ...opened.consoleErrors]).toEqual([]);
  await opened.context.close();
});
