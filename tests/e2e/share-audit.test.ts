/**
 * A share link at "rows" detail of a report with an attached audit (issue 30): the samples stay
 * out of the link, the audited questions' classes travel beside the rows (src/share/audit-classes.ts),
 * and the shared page shows the audit's results with the numbers the whole report gives.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage } from './chromium';
import { SHARE_ROUTE, encodePayload, makeShareLink } from '../../src/share/codec';
import { auditOfRequest } from '../../src/workers/recompute-api';
import type { AuditLineRecord } from '../../src/model/audit-repository';
import { sampleReport } from '../unit/share/report-fixture';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test("a rows link of an audited report shows the audit's κ, ARI and ECE shift as the whole report gives them", async () => {
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
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});
