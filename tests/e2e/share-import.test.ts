/** Hostile report files through the app's Open report page, which uses parseReportFile. */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { sampleReport } from '../unit/share/report-fixture';
import { REPORT_VERSION } from '../../src/model/report';
import { expectHeadlineNumbers } from './share-report-checks';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function openFile(page: Page, name: string, text: string) {
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('[data-control="report-file"]').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

const json = () => JSON.parse(JSON.stringify(sampleReport({ questions: 5 })));

test('bad files are refused with a message naming the problem; the page stays usable', async () => {
  const { context, page, consoleErrors } = await openPage(browser);
  const cases: [string, string, RegExp][] = [
    ['newer.json', JSON.stringify({ ...json(), version: REPORT_VERSION + 1 }), /newer.json: This report was made by a newer version of the app/],
    ['nan.json', JSON.stringify(json()).replace('"sem1":0.5', '"sem1":NaN'), /not valid JSON/],
    ['inf.json', JSON.stringify(json()).replace('"stdMargin":', '"stdMargin":1e999,"x":'), /models\[0\]\.questions\[0\]\.stdMargin: expected a finite number/],
    ['missing.json', JSON.stringify({ ...json(), settings: undefined }), /settings: missing/],
    ['wrong.json', JSON.stringify(json()).replace('"n":6', '"n":"six"'), /models\[0\]\.questions\[0\]\.n: expected a whole number/],
    ['page.html', '<html><script>window.__pwned=1</script></html>', /not valid JSON/],
  ];
  for (const [name, text, message] of cases) {
    await openFile(page, name, text);
    const error = page.locator('[data-open-error]');
    // The page may still show the previous file's message for a moment: wait for this one's.
    await expect.poll(async () => ((await error.count()) ? await error.textContent() : ''), { timeout: 60_000 }).toMatch(message);
  }
  await screenshot(page, 'share-import-refused');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('script tags in labels are shown as text, never run', async () => {
  const doc = sampleReport({ questions: 5 });
  doc.models[0].model = '<script>window.__pwned=1</script>';
  doc.models[1].model = '<img src=x onerror="window.__pwned=2">';
  doc.dataset.name = '<svg onload="window.__pwned=3">';
  const { context, page, consoleErrors } = await openPage(browser);
  await openFile(page, 'labels.json', JSON.stringify(doc));
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  await expectHeadlineNumbers(page, doc);
  expect(await page.getByText('<script>window.__pwned=1</script>').count()).toBeGreaterThan(0);
  expect(await page.locator('img[onerror], svg[onload]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(consoleErrors).toEqual([]);
  await context.close();
});
