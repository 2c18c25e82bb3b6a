/**
 * A run's report over SAMPLE_DETAIL_LIMIT samples keeps each question's classes, not its samples;
 * the drill-down of the saved report reads them back from this browser's caches on demand. A
 * paper-scale run is too large for a browser test, so a small run's saved report is rewritten in
 * IndexedDB the way such a run saves it (no per-sample lists), then opened.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { elementShot, openPage, screenshot, widthAt } from './chromium';
import { putRecord, readRecord, startRunThroughWizard } from './run-helpers';
import { capitalsCsv, capitalsMockQuestions, closeWithMock, launchWithMock, type Capital } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';

const CAPITALS: Capital[] = [
  ['France', 'Paris', { Paris: 1 }],
  ['Canada', 'Ottawa', { Toronto: 0.5, Ottawa: 0.3, Montreal: 0.2 }],
  ['Australia', 'Canberra', { Sydney: 0.55, Canberra: 0.45 }],
];

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: 'mock-key', latencyMs: 0, questions: capitalsMockQuestions(CAPITALS) }));
});
afterAll(() => closeWithMock(browser, mock));

interface StoredQuestion {
  id: string;
  samples?: { answer: string; cls: number }[];
  classes?: { label: string; size: number }[];
}

test("a saved run's report without per-sample lists shows a question's samples, by class, read back from this browser's caches", async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const appUrl = inject('appUrl');
  const runId = await startRunThroughWizard(page, appUrl, {
    file: { name: 'capitals.csv', text: capitalsCsv(CAPITALS) },
    baseUrl: `${mock.url}/v1`,
    model: 'gpt-4o-mini',
    key: 'mock-key',
    n: 12,
    concurrency: 4,
  });
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 60_000 });

  // The saved report as a paper-scale run saves it: classes kept, per-sample lists left out.
  const report = (await readRecord(page, 'reports', runId)) as { document: { models: { questions: StoredQuestion[] }[] } };
  const before = structuredClone(report.document.models[0].questions);
  for (const m of report.document.models) for (const q of m.questions) delete q.samples;
  await putRecord(page, 'reports', report);
  const target = before.find((q) => (q.classes?.length ?? 0) > 2)!;
  expect(target.samples).toHaveLength(12);
  const served = mock.stats().requests;

  await page.goto(`${appUrl}#/report/${encodeURIComponent(runId)}`);
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  await page.locator('button[data-view="questions"]').click();
  await page.locator(`[data-table="questions"] tr[data-id="${target.id}"] button.open`).click();
  const drill = page.locator(`[data-drill="${target.id}"]`);
  await drill.waitFor();
  expect(await drill.locator('table.samples').count()).toBe(0);
  expect(await drill.locator('[data-class-plain]').count()).toBe(target.classes!.length);

  await drill.locator('button[data-control="cached-samples"]').click();
  // Each class becomes a disclosure with its own samples, the modal one open.
  await drill.locator('.classes > li > details').first().waitFor();
  expect(await drill.locator('[data-no-samples]').count()).toBe(0);
  expect(await drill.locator('.classes > li > details').count()).toBe(target.classes!.length);
  for (const [k, c] of target.classes!.entries()) {
    const answers = await drill.locator(`.classes > li:nth-child(${k + 1}) table.samples tbody tr td:nth-child(2)`).allTextContents();
    expect(answers).toEqual(target.samples!.filter((s) => s.cls === k).map((s) => s.answer));
    expect(answers).toHaveLength(c.size);
  }
  expect(await drill.locator('[data-cached-samples="classed"]').count()).toBe(1);
  await screenshot(page, 'report-cached-samples');
  await page.emulateMedia({ colorScheme: 'dark' });
  // On a phone the page still scrolls no sideways: the sample tables scroll in their own boxes.
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await drill.scrollIntoViewIfNeeded();
  await elementShot(drill, 'report-cached-samples-390-dark');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Had the run clustered with a judge whose partitions are no longer cached, the samples come without their classes.
  const run = (await readRecord(page, 'runs', runId)) as { spec: { clustering: unknown } };
  run.spec.clustering = { method: 'judge', judge: { kind: 'openai', preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'a-judge-never-asked' } };
  await putRecord(page, 'runs', run);
  await page.reload();
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  await page.locator('button[data-view="questions"]').click();
  await page.locator(`[data-table="questions"] tr[data-id="${target.id}"] button.open`).click();
  await drill.locator('button[data-control="cached-samples"]').click();
  const unclassed = drill.locator('[data-cached-samples="unclassed"]');
  await unclassed.waitFor();
  expect(await unclassed.textContent()).toBe("The 12 samples from this browser's cache, without their classes: their clustering is no longer in this browser's cache.");
  expect(await drill.locator('table.samples tbody tr td:nth-child(2)').allTextContents()).toEqual(target.samples!.map((s) => s.answer));
  expect(await drill.locator('[data-class-plain]').count()).toBe(target.classes!.length);

  // Read from the caches: no request went to the provider.
  expect(mock.stats().requests).toBe(served);

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
