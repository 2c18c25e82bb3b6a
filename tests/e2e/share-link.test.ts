import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { SHARE_ROUTE, encodePayload, makeShareLink, reduceReport } from '../../src/share/codec';
import { parseReport } from '../../src/formats/report-import';
import { eceInferenceOfRows } from '../../src/pipeline/ece-inference-metrics';
import { withEceInference } from '../../src/pipeline/ece-inference-merge';
import type { SignalName } from '../../src/model/signals';
import type { ReportDocument } from '../../src/model/report';
import { sampleReport } from '../unit/share/report-fixture';
import { expectHeadlineNumbers, expectQuestionRows } from './share-report-checks';

let browser: Browser;
const dir = mkdtempSync(path.join(tmpdir(), 'semece-share-'));

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

function hostile() {
  const doc = sampleReport({ questions: 10 });
  doc.title = 'Shared <img src=x onerror="window.__pwned=1"> report';
  doc.models[1].questions[0].question = '<script>window.__pwned=2</script>';
  return doc;
}

test('a share link made by a version-1 build opens, upgraded, with its numbers as written', async () => {
  // The payload a version-1 build made of its report (tests/fixtures/report-versions/v1-last.json).
  const v1 = JSON.parse(readFileSync('tests/fixtures/report-versions/v1-last.json', 'utf8')) as ReportDocument;
  expect(v1.version).toBe(1);
  const written = parseReport(v1);
  if (!written.ok) throw new Error(written.error.message);
  const { context, page, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}${SHARE_ROUTE}${encodePayload(v1, 'full')}`);
  await page.locator('[data-shared-banner]').waitFor({ timeout: 60_000 });
  await expectHeadlineNumbers(page, written.value);
  await expectQuestionRows(page, written.value);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('report → share link → open shows the same numbers, read-only, and nothing leaves loopback', async () => {
  const doc = hostile();
  const link = makeShareLink(doc, inject('appUrl'));
  expect(link.ok).toBe(true);
  if (!link.ok) return;
  const shown = reduceReport(doc, link.value.detail);

  const { context, page, consoleErrors, offLoopback } = await openPage(browser);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(link.value.url);
  await page.locator('[data-shared-banner]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-shared-banner]').textContent()).toContain('nothing was sent to any server');
  expect(await page.locator('.report-head h1').textContent()).toBe(doc.title);
  await expectHeadlineNumbers(page, shown);
  await screenshot(page, 'share-link-opened');
  await expectQuestionRows(page, shown);

  // The payload is only in the fragment: no request carries it.
  const payload = link.value.url.split('#/shared/')[1];
  expect(requests.some((u) => u.includes(payload.slice(0, 40)))).toBe(false);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('img[onerror]').count()).toBe(0);
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('"Keep a copy" stores the report in this browser and the copy shows the same numbers', async () => {
  const doc = sampleReport({ questions: 6 });
  const link = makeShareLink(doc, inject('appUrl'));
  if (!link.ok) throw new Error(link.error.message);
  const { context, page, consoleErrors } = await openPage(browser);
  await page.goto(link.value.url);
  await page.locator('[data-action="keep"]').click();
  const kept = page.locator('[data-kept]');
  await kept.waitFor({ timeout: 60_000 });
  await kept.locator('a').click();
  await page.waitForURL(/#\/report\/shared-/);
  // The saved-report page replaces the shared one (its banner goes) once the store has answered.
  await page.locator('[data-shared-banner]').waitFor({ state: 'detached', timeout: 60_000 });
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  await expectHeadlineNumbers(page, reduceReport(doc, link.value.detail));
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('from the page: "Copy share link" makes a link that reopens the same report; "Download HTML" gives an offline file', async () => {
  const doc = sampleReport({ questions: 8 });
  const first = makeShareLink(doc, inject('appUrl'));
  if (!first.ok) throw new Error(first.error.message);
  const { context, page, consoleErrors } = await openPage(browser);
  await page.goto(first.value.url);
  await page.locator('[data-action="share"]').click();
  const field = page.locator('[data-share-link]');
  await field.waitFor();
  const again = await field.inputValue();
  expect(again.startsWith(inject('appUrl'))).toBe(true);
  expect(await page.locator('[data-actions-message]').textContent()).toMatch(/never send to a server/);

  const second = await context.newPage();
  await second.goto(again);
  await second.locator('[data-report]').waitFor({ timeout: 60_000 });
  await expectHeadlineNumbers(second, reduceReport(doc, first.value.detail));

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="html"]').click()]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  expect(file.endsWith('.html')).toBe(true);
  const offline = await browser.newContext();
  await offline.setOffline(true);
  await offline.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  const viewer = await offline.newPage();
  await viewer.goto(pathToFileURL(file).href);
  await viewer.locator('[data-report]').waitFor({ timeout: 60_000 });
  await expectHeadlineNumbers(viewer, reduceReport(doc, first.value.detail));

  const [json] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="json"]').click()]);
  const jsonFile = path.join(dir, json.suggestedFilename());
  await json.saveAs(jsonFile);
  const back = parseReport(readFileSync(jsonFile, 'utf8'));
  // The fixture predates the stored ECE interval, so the page computed it from the rows while the
  // report was shown (ui/report/inference-fill.ts) and the download carries it: the same document
  // with each model's inference put in, as the pipeline computes it from those rows.
  const reduced = reduceReport(doc, first.value.detail);
  const filled = {
    ...reduced,
    models: reduced.models.map((m) => ({
      ...m,
      metrics: withEceInference(
        m.metrics,
        eceInferenceOfRows(m.questions, Object.keys(m.metrics.signals) as SignalName[], { bins: reduced.settings.bins, seed: reduced.settings.bootstrap.seed }),
      ),
    })),
  };
  expect(back.ok && back.value).toEqual(filled);

  expect(consoleErrors).toEqual([]);
  await offline.close();
  await context.close();
});

test('a damaged link shows a clear message', async () => {
  const { context, page, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/shared/AAAA-not-a-report`);
  const alert = page.locator('[data-shared-error]');
  await alert.waitFor({ timeout: 60_000 });
  expect(await alert.textContent()).toMatch(/cannot be opened/);
  await screenshot(page, 'share-link-damaged');
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a summary-only link (rows did not fit) opens, says so, and every view copes with no rows', async () => {
  const doc = sampleReport({ questions: 40 });
  // A limit that the summary just meets and the rows exceed.
  const limit = inject('appUrl').length + SHARE_ROUTE.length + encodePayload(doc, 'summary').length;
  const summaryOnly = makeShareLink(doc, inject('appUrl'), limit);
  expect(summaryOnly.ok && summaryOnly.value.detail).toBe('summary');
  if (!summaryOnly.ok) return;
  const { context, page, consoleErrors } = await openPage(browser);
  await page.goto(summaryOnly.value.url);
  await page.locator('[data-shared-banner]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-shared-banner]').textContent()).toContain('summary only');
  await expectHeadlineNumbers(page, doc);
  for (const view of ['difficulty', 'questions', 'calibration']) {
    await page.locator(`[data-view="${view}"]`).click();
    await page.locator(`[data-view="${view}"][aria-selected="true"]`).waitFor();
  }
  await screenshot(page, 'share-link-summary');
  expect(consoleErrors).toEqual([]);
  await context.close();
});
