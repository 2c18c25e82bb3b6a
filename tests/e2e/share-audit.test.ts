/**
 * A share link at "rows" detail of a report with an attached audit (issue 30): the samples stay
 * out of the link, the audited questions' classes travel beside the rows (src/share/audit-classes.ts),
 * and the shared page shows the audit's results with the numbers the whole report gives; a kept
 * copy, opened from the saved reports, shows the same results (the classes are kept in its document).
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage } from './chromium';
import { SHARE_ROUTE, encodePayload, makeShareLink } from '../../src/share/codec';
import { auditOfRequest } from '../../src/workers/recompute-api';
import type { AuditLineRecord } from '../../src/model/audit-repository';
import { sampleReport } from '../unit/share/report-fixture';

let browser: Browser;

/** What the audit results show: each statistic's value, each signal's ECE shift, and the words. */
async function auditShown(page: Page) {
  const results = page.locator('[data-audit-results]');
  const pairs = (selector: string, key: string, value: string) =>
    results.locator(selector).evaluateAll((rows, [k, v]) => Object.fromEntries(rows.map((r) => [r.getAttribute(k!), r.getAttribute(v!)])), [key, value]);
  return {
    stats: await pairs('[data-stat]', 'data-stat', 'data-value'),
    shifts: await pairs('[data-table="audit-ece-shift"] tr[data-signal]', 'data-signal', 'data-shift'),
    text: ((await results.textContent()) ?? '').replace(/\s+/g, ' '),
  };
}
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test("a rows link of an audited report shows the audit's κ, ARI and ECE shift as the whole report gives them, and so does its kept copy opened from the saved reports", async () => {
  const doc = sampleReport({ questions: 40 });
  const m = doc.models[0]!;
  const audit: AuditLineRecord[] = m.questions.slice(0, 10).map((q, i) => ({
    id: q.id,
    model: m.model,
    classes: i % 2 === 0 ? [[0, 3, 1, 4], [2, 5]] : [[0, 3], [1, 4], [2, 5]],
    grade: i % 4 === 1 ? 'NOT_ATTEMPTED' : q.grade,
    by: 'ana',
    at: '2026-12-06T10:00:00Z',
  }));
  const audited = { ...doc, audit };
  const base = inject('appUrl');
  const rowsLength = (base.split('#')[0] + SHARE_ROUTE).length + encodePayload(audited, 'rows').length;
  const link = makeShareLink(audited, base, rowsLength);
  if (!link.ok) throw new Error(link.error.message);
  expect([link.value.detail, link.value.auditClasses]).toEqual(['rows', true]);
  const whole = auditOfRequest({ doc: audited, lines: audit, strata: { by: 'none' } }).models[0]!;
  expect(whole.questions).toBe(10);

  const { context, page, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(link.value.url);
  await page.locator('[data-shared-banner]').waitFor({ timeout: 60_000 });
  await expect.poll(() => page.locator('[data-shared-banner]').textContent()).toContain("The audited questions' classes came with it");
  const results = page.locator(`[data-audit-results] [data-audit-model="${m.model}"]`);
  await expect.poll(() => results.locator('[data-stat="kappa"]').getAttribute('data-value'), { timeout: 30_000 }).not.toBeNull();
  const value = async (selector: string, attribute: string) => Number(await results.locator(selector).getAttribute(attribute));
  expect(await value('[data-stat="kappa"]', 'data-value')).toBeCloseTo(whole.grades.kappa[0], 12);
  expect(await value('[data-stat="ari"]', 'data-value')).toBeCloseTo(whole.classes.ari[0], 12);
  expect(whole.classes.ari[0]).toBeLessThan(1);
  expect(await value('[data-table="audit-ece-shift"] tr[data-signal="sem1"]', 'data-shift')).toBeCloseTo(whole.eceShift.sem1!.estimate, 12);
  await expect.poll(() => results.locator('[data-audit-count]').textContent()).toContain('10 questions audited by ana');
  const onShared = await auditShown(page);

  // "Keep a copy", then open the copy from the Runs page's saved reports: the same audit results, every line used.
  await page.locator('[data-action="keep"]').click();
  const keptId = await page.locator('[data-kept]').getAttribute('data-kept', { timeout: 60_000 });
  await page.goto(`${base.split('#')[0]}#/runs`);
  await page.locator(`[data-saved-report="${keptId}"] th a`).click();
  await page.waitForURL(new RegExp(`#/report/${keptId}`));
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-shared-banner]').count()).toBe(0);
  const keptResults = page.locator(`[data-audit-results] [data-audit-model="${m.model}"]`);
  await expect.poll(() => keptResults.locator('[data-stat="kappa"]').getAttribute('data-value'), { timeout: 30_000 }).not.toBeNull();
  const onKept = await auditShown(page);
  expect(onKept).toEqual(onShared);
  expect(Number(onKept.stats.kappa)).toBeCloseTo(whole.grades.kappa[0], 12);
  expect(Number(onKept.shifts.sem1)).toBeCloseTo(whole.eceShift.sem1!.estimate, 12);
  expect(onKept.text).not.toContain('Lines not used');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});
