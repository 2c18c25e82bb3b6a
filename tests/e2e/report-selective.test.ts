/**
 * The selective-prediction view: on a report whose Sem2 confidences are a fixture of 400
 * questions (200 at 0.9 with 4 wrong, 200 at 0.5 with half wrong), the view shows the threshold
 * the report stored at the default target (10%) and seed, and the one another target gives, with
 * the coverage, error and SimpleQA counts core/abstention.ts computes; the threshold downloads as JSON that the
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
import { afterLayout, elementShot, launchChromium, openPage, screenshot } from './chromium';
import { demoDocument } from './report-fixture';
import { reportToJson } from '../../src/formats/report-export';
import { embedReport } from '../../src/export/embed';
import { parseThresholdDocument } from '../../src/formats/abstention-threshold-schema';
import type { ReportDocument, ReportQuestion } from '../../src/model/report';
import { modelMetrics } from '../../src/pipeline/score-stage';
import { abstention } from '../../src/core/abstention';
import { pct } from '../../src/formats/numbers';
import { builtAppDir } from './built-app';

let browser: Browser;
const dir = mkdtempSync(path.join(tmpdir(), 'semece-selective-'));
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const conf = Array.from({ length: 400 }, (_, i) => (i < 200 ? 0.9 : 0.5));
const y = conf.map((c, i) => (c === 0.9 ? (i % 50 === 3 ? 0 : 1) : i % 2));
/** Row 202 (0.5, wrong) was declined by the model. */
const DECLINED = 202;

/** The demo document with one model whose 400 questions carry the fixture as Sem2. */
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
    grade: y[i] ? 'CORRECT' : i === DECLINED ? 'NOT_ATTEMPTED' : 'INCORRECT',
    overridden: undefined,
  }));
  const metrics = modelMetrics(questions, { excluded: 0 }, { B: doc.settings.bootstrap.B, bootstrapSeed: doc.settings.bootstrap.seed, bins: doc.settings.bins });
  doc.models = [{ model: 'fixture/model', metrics, questions, excludedQuestions: [] }];
  doc.title = 'Selective fixture';
  doc.demo = false;
  doc.dataset = { name: 'fixture', questions: 400 };
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
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
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

test('the stored threshold at the default target, another target computed; download the threshold and open it again', async () => {
  const fixture = fixtureDocument();
  const { page, context, consoleErrors, offLoopback } = await openDocument(fixture, 1280);
  await openSelectiveTab(page);
  const panel = page.locator('[data-panel="selective"]');

  // The curves are the AURCs' curves: their areas equal the stored numbers, written in full.
  const rows = await aurcRows(page);
  expect(rows.map((r) => r.signal)).toEqual(['sem1', 'sem2', 'verbalized']);
  for (const r of rows) expect(r.area, r.signal!).toBe(r.stored);
  expect(await panel.locator('[data-aurc-mismatch]').count()).toBe(0);
  expect(await panel.locator('[data-chart="risk-coverage"] [data-series="sem2"] path').getAttribute('data-points')).toBe('400');

  // The split rule and the guarantee are stated in the view.
  expect(await panel.locator('[data-split-rule]').textContent()).toMatch(/default_rng\(seed\)\.permutation\(N\)[\s\S]*Clopper–Pearson[\s\S]*Bonferroni[\s\S]*Wilson[\s\S]*20 seeded splits/);

  // The default target (10%) and seed (0): the threshold the report stored when it was scored.
  const stored = fixture.models[0].metrics.abstention!.bySignal.sem2!;
  const declined = conf.map((_, i) => (i === DECLINED ? 1 : 0));
  expect(stored).toMatchObject({ threshold: 0.9, evaluation: abstention(conf, y, { target: 0.1, seed: 0, declined }).evaluation });
  await panel.locator('[data-control="abstain-signal"]').selectOption('sem2');
  await expect.poll(() => panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.9');
  expect(await panel.locator('[data-threshold] strong').textContent()).toBe('0.9000');
  const e = stored.evaluation;
  const held = (count: string) => panel.locator(`[data-table="abstain-counts"] td[data-half="evaluation"][data-count="${count}"]`).textContent();
  expect([await held('correct'), await held('incorrect'), await held('not-attempted'), await held('abstained'), await held('declined')]).toEqual(
    [e.correct, e.incorrect, e.notAttempted, e.abstained, e.declined].map(String),
  );
  expect(await panel.locator('[data-figure="coverage"] dd').textContent()).toBe(`${pct(e.coverage[0])} [${pct(e.coverage[1])}, ${pct(e.coverage[2])}] (${e.answered} of ${e.questions} answered)`);
  expect(await panel.locator('[data-figure="error"] dd').textContent()).toBe(`${pct(e.error[0])} [${pct(e.error[1])}, ${pct(e.error[2])}] (${e.errors} of ${e.answered} not correct)`);
  expect(await panel.locator('[data-threshold-guarantee]').textContent()).toMatch(new RegExp(`Upper bound on its error: ${pct(stored.choice.bound).replace('.', '\\.')} `));
  const spread = (await panel.locator('[data-threshold-spread]').textContent())!.replace(/\s+/g, ' ');
  expect(spread).toContain(`Over 20 seeded splits (seeds 0–19): the held-out error has median ${pct(stored.spread.heldOutError.median)}`);
  expect(spread).toContain(`exceeded the target in ${stored.spread.exceeded} of them`);
  expect(spread).toContain('Chosen when the report was scored.');
  // The threshold's point sits on the Sem2 curve of all questions: the 200 at 0.9, 4 of them wrong.
  const mark = panel.locator('[data-threshold-mark="sem2"]');
  expect(await mark.count()).toBe(1);
  expect(await mark.getAttribute('aria-label')).toMatch(/50\.0% answered, error 2\.0%/);
  await screenshot(page, 'report-selective-1280');
  await elementShot(panel, 'report-selective-panel-1280');

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
  expect([d.model, d.signal, d.threshold, d.target, d.split.seed, d.report.title]).toEqual(['fixture/model', 'sem2', 0.9, 0.1, 0, 'Selective fixture']);
  expect([d.evaluation.correct, d.evaluation.incorrect, d.evaluation.notAttempted, d.evaluation.coverage[0], d.evaluation.error[0]]).toEqual([e.correct, e.incorrect, e.notAttempted, e.coverage[0], e.error[0]]);
  expect(d.guarantee).toEqual({ delta: 0.05, tried: 2, bound: stored.choice.bound });
  expect(d.spread).toMatchObject({ splits: 20, exceeded: stored.spread.exceeded });

  // Another target moves the threshold (computed on the page): at 40% the 0.5 questions are answered too.
  await panel.locator('[data-control="abstain-target"]').fill('40');
  await expect.poll(() => panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.5');
  expect(await panel.locator('[data-threshold-spread]').textContent()).toMatch(/Computed here for this target and seed\./);
  // Opening the file brings its settings back.
  await panel.locator('[data-control="threshold-file"]').setInputFiles(file);
  await panel.locator('[data-threshold-loaded="applied"]').waitFor();
  expect(await panel.locator('[data-threshold-loaded]').textContent()).toMatch(/same threshold/);
  expect(await panel.locator('[data-control="abstain-target"]').inputValue()).toBe('10');
  expect(await panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.9');

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
  const demo = demoDocument();
  demo.demo = false;
  const { page, context, consoleErrors } = await openDocument(demo, 390, 'light');
  // Keyboard: the selected tab, End to the last tab (Uncertainty methods), then two to the left (past Slices): the selective view.
  await page.locator('[data-view="calibration"]').focus();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
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
  // Light, then the same page switched to dark where it stands: the theme is CSS alone (theme.css),
  // so this is the page a fresh load in dark draws; each scheme's boxes are measured and audited.
  for (const scheme of ['light', 'dark'] as const) {
    if (scheme === 'dark') {
      await page.emulateMedia({ colorScheme: scheme });
      await afterLayout(page);
    }
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
      await elementShot(el, `report-selective-${part}-390-${scheme}`);
    }
    expect(await panelViolations(page), scheme).toEqual([]);
  }
  expect(consoleErrors).toEqual([]);
  await context.close();
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
  await panel.locator('[data-control="abstain-target"]').fill('40');
  await expect.poll(() => panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.5');
  const downloading = page.waitForEvent('download');
  await panel.locator('[data-action="download-threshold"]').focus();
  await page.keyboard.press('Enter');
  const saved = path.join(dir, 'offline-threshold.json');
  await (await downloading).saveAs(saved);
  await panel.locator('[data-control="abstain-target"]').fill('10');
  await expect.poll(() => panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.9');
  await panel.locator('[data-control="threshold-file"]').setInputFiles(saved);
  await panel.locator('[data-threshold-loaded="applied"]').waitFor();
  expect(await panel.locator('[data-threshold]').getAttribute('data-threshold')).toBe('0.5');
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
