import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { reportToJson } from '../../src/formats/report-export';
import { SAMPLE_DETAIL_LIMIT } from '../../src/pipeline/report-detail';
import { demoDocument, openHome } from './report-fixture';
import { applyGradeOverride } from '../../src/pipeline/overrides-recompute';
import { gradeWords } from '../../src/model/grade-words';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('overriding a grade in the drill-down changes the ECE shown to the value recomputed from the document', async () => {
  const doc = demoDocument();
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  const shownEce = () => page.locator('[data-table="headline"] tbody tr').first().locator('td[data-ece="sem1"]').getAttribute('data-value');
  expect(Number(await shownEce())).toBe(doc.models[0].metrics.signals.sem1!.ece);

  await page.locator('button[data-view="questions"]').click();
  const rows = page.locator('[data-table="questions"] tbody tr');
  expect(await rows.count()).toBe(Math.min(50, doc.models[0].questions.length));
  await screenshot(page, 'report-questions');

  // Pick a wrongly answered question with high Sem1: making it correct must move the ECE.
  const target = [...doc.models[0].questions].filter((q) => q.correct === 0).sort((a, b) => b.sem1 - a.sem1)[0];
  await page.locator('input[data-control="search"]').fill(target.id);
  await page.locator(`[data-table="questions"] tr[data-id="${target.id}"] button.open`).click();
  const drill = page.locator(`[data-drill="${target.id}"]`);
  await drill.waitFor();
  // Samples are grouped by class, with the modal class's label and grade.
  expect(await drill.locator('.classes > li').count()).toBeGreaterThan(0);
  // With samples, each class is a disclosure holding its samples, the modal one open.
  expect(await drill.locator('.classes > li > details').count()).toBe(await drill.locator('.classes > li').count());
  expect(await drill.locator('.classes > li.modal > details[open] table.samples').count()).toBe(1);
  expect(await drill.locator('.classes > li.modal .badge').textContent()).toContain(gradeWords(target.grade));
  await screenshot(page, 'report-drilldown');

  await drill.locator('select[data-control="grade"]').selectOption('CORRECT');
  const expected = applyGradeOverride(doc, 0, target.id, 'CORRECT');
  if (!expected.ok) throw new Error(expected.error.message);
  const want = expected.value.models[0].metrics.signals.sem1!.ece;
  expect(want).not.toBe(doc.models[0].metrics.signals.sem1!.ece);
  await expect.poll(async () => Number(await shownEce())).toBe(want);
  expect(await drill.locator('[data-overridden]').count()).toBe(1);
  // The recompute ran off the main thread.
  expect(page.workers().some((w) => w.url().includes('recompute.worker'))).toBe(true);
  // The grade in words ("correct", "not attempted"), never the raw value.
  expect(await page.locator(`tr[data-id="${target.id}"] .grade`).textContent()).toMatch(/^correct\b/);
  await screenshot(page, 'report-override');
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test("a report that keeps classes, not samples (a run over SAMPLE_DETAIL_LIMIT), shows each class's size in the drill-down and says why the samples are absent", async () => {
  const demo = demoDocument();
  const doc = { ...demo, models: demo.models.map((m) => ({ ...m, questions: m.questions.map(({ samples: _samples, ...q }) => q) })) };
  const target = doc.models[0].questions.find((q) => (q.classes?.length ?? 0) > 1)!;
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'classes-only.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await page.locator('button[data-view="questions"]').click();
  await page.locator('input[data-control="search"]').fill(target.id);
  await page.locator(`[data-table="questions"] tr[data-id="${target.id}"] button.open`).click();
  const drill = page.locator(`[data-drill="${target.id}"]`);
  await drill.waitFor();
  const heads = await drill.locator('.classes > li .class-head > span.muted:not(.small)').allTextContents();
  expect(heads.map((t) => Number(t.split(' of ')[0]))).toEqual(target.classes!.map((c) => c.size));
  expect(await drill.locator('table.samples').count()).toBe(0);
  // Each class is a plain line, not a disclosure that would open to nothing.
  expect(await drill.locator('.classes > li [data-class-plain]').count()).toBe(target.classes!.length);
  expect(await drill.locator('.classes details').count()).toBe(0);
  // A report opened from a file has no run in this browser: there is no cache to read its samples from.
  expect(await drill.locator('button[data-control="cached-samples"]').count()).toBe(0);
  await screenshot(page, 'report-drilldown-classes-only');
  expect(await drill.locator('[data-no-samples]').textContent()).toContain(SAMPLE_DETAIL_LIMIT.toLocaleString('en'));
  expect(consoleErrors).toEqual([]);
  await context.close();
});
