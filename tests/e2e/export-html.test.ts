import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { embedReport } from '../../src/export/embed';
import { sampleReport } from '../unit/share/report-fixture';
import { expectHeadlineNumbers, expectQuestionRows } from './share-report-checks';
import type { ReportDocument } from '../../src/model/report';
import { demoDocument } from './report-fixture';
import { builtAppDir } from './built-app';
import { reclusteredExact } from '../unit/ui/report/agreement-fixture';
import { agreementWithFile } from '../../src/pipeline/report-agreement';

let browser: Browser;
const template = () => readFileSync(path.join(builtAppDir(), 'report-viewer.html'), 'utf8');
const dir = mkdtempSync(path.join(tmpdir(), 'semece-html-'));

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A context with the network off: offline mode, and every request other than file:// aborted and recorded. */
async function offline(context: BrowserContext) {
  const leaked: string[] = [];
  await context.setOffline(true);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    leaked.push(url);
    return route.abort();
  });
  return leaked;
}

function hostileReport(): ReportDocument {
  const doc = sampleReport({ questions: 12 });
  doc.title = 'Offline </script><script>window.__pwned = 1</script> <!-- report';
  doc.models[0].model = 'model-a <img src=x onerror="window.__pwned=2">';
  doc.models[0].questions[0].question = '<b onmouseover="window.__pwned=3">bold?</b> </script> <!--';
  doc.models[0].questions[0].samples![0].answer = '<script>window.__pwned=4</script>';
  return doc;
}

test('the HTML file opens from file:// with the network off and shows the same numbers', async () => {
  const doc = hostileReport();
  const file = path.join(dir, 'report.html');
  writeFileSync(file, embedReport(template(), doc).html);

  const { context, page, consoleErrors } = await openPage(browser);
  const leaked = await offline(context);
  await page.goto(pathToFileURL(file).href);
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });

  expect(await page.title()).toBe(`${doc.title} · Sem-ECE`);
  expect(await page.locator('.report-head h1').textContent()).toBe(doc.title);
  await expectHeadlineNumbers(page, doc);
  await screenshot(page, 'export-html-offline');

  // Chart export works inside the file too (its Content-Security-Policy allows blob: images).
  for (const kind of ['svg', 'png']) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${kind}"]`).first().click()]);
    expect(download.suggestedFilename().endsWith(`.${kind}`)).toBe(true);
    expect(await download.failure()).toBeNull();
  }
  await expectQuestionRows(page, doc);

  // The drill-down works offline too, and hostile text stays text.
  await page.locator('button[aria-label="Open question q0"]').click();
  const drill = page.locator('[data-drill="q0"]');
  await drill.waitFor();
  expect(await drill.locator('.q').textContent()).toBe(doc.models[0].questions[0].question);
  expect(await drill.getByText('<script>window.__pwned=4</script>').count()).toBeGreaterThan(0);
  await screenshot(page, 'export-html-drilldown');

  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('b[onmouseover], img[onerror]').count()).toBe(0);
  expect(leaked).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('the demo report (computed by the pipeline) as an HTML file shows the same numbers offline', async () => {
  const doc = demoDocument();
  const file = path.join(dir, 'demo.html');
  writeFileSync(file, embedReport(template(), doc).html);
  const { context, page, consoleErrors } = await openPage(browser);
  const leaked = await offline(context);
  await page.goto(pathToFileURL(file).href);
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-demo-label]').count()).toBe(1);
  await expectHeadlineNumbers(page, doc);
  await expectQuestionRows(page, doc);
  await screenshot(page, 'export-html-demo');

  // "Compare with another clustering…" works in the file too: no import worker can start from it, so the page compares on its own thread.
  const text = reclusteredExact();
  const want = agreementWithFile(doc.models[0], text, 'exact.clustered.jsonl');
  if (!want.ok) throw new Error(want.error.message);
  await page.locator('[data-view="questions"]').click();
  await page.locator('input[data-control="agreement-file"]').setInputFiles({ name: 'exact.clustered.jsonl', mimeType: 'application/json', buffer: Buffer.from(text) });
  const summary = page.locator('[data-agreement-summary]');
  await summary.waitFor({ timeout: 60_000 });
  const values = await summary.locator('dd').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
  const s = want.value.summary;
  expect(values).toEqual([s.questions, s.meanRandIndex, s.meanAdjustedRandIndex, s.sameModalShare, s.modalIdenticalShare]);
  expect(leaked).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('the template is one self-contained file: no external script, style or font', () => {
  const html = template();
  expect(html).not.toMatch(/<script[^>]+src=/);
  expect(html).not.toMatch(/<link[^>]+rel="(stylesheet|modulepreload)"/);
  // Library code mentions URLs in error texts; what matters is that nothing is loaded from one.
  expect(/(src|href)=["']?(https?:)?\/\//.test(html)).toBe(false);
  expect(/@import|url\(\s*["']?https?:/.test(html)).toBe(false);
  expect(html.split('__SEMECE_REPORT_JSON__').length).toBe(2);
});

test('a damaged embedded report shows a message, not a broken page', async () => {
  const file = path.join(dir, 'damaged.html');
  const bad = JSON.parse(JSON.stringify(sampleReport({ questions: 2 })));
  bad.models[0].questions[1].sem1 = 3;
  writeFileSync(file, embedReport(template(), bad).html);
  const { context, page, consoleErrors } = await openPage(browser);
  await offline(context);
  await page.goto(pathToFileURL(file).href);
  const alert = page.locator('[data-viewer-error]');
  await alert.waitFor({ timeout: 60_000 });
  expect(await alert.textContent()).toContain('models[0].questions[1].sem1: expected a number in [0,1]');
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a 200,000-character reply: the HTML file still opens offline, the reply cut with a marker in the drill-down', async () => {
  const doc = sampleReport({ questions: 3 });
  doc.models[0].questions[0].samples![0].raw = 'Long thought. '.repeat(14_286).slice(0, 200_000);
  const file = path.join(dir, 'long-reply.html');
  writeFileSync(file, embedReport(template(), doc).html);
  const { context, page, consoleErrors } = await openPage(browser);
  await offline(context);
  await page.goto(pathToFileURL(file).href);
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  await page.locator('[data-view="questions"]').click();
  await page.locator('button[aria-label="Open question q0"]').click();
  const raw = page.locator('[data-drill="q0"] td.raw pre').filter({ hasText: 'Long thought.' });
  await raw.first().waitFor({ state: 'attached' });
  const text = (await raw.first().textContent()) ?? '';
  expect(text.length).toBe(100_000);
  expect(text.endsWith('… [truncated: 200,000 characters]')).toBe(true);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
