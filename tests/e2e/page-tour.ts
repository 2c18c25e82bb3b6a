/**
 * Every page of the app, visited one after the other in one browser context: the home page's
 * demo report and each of its views and a question's drill-down, the New run wizard's steps, the runs list, the open-report
 * page, Compare and Leaderboard with report files chosen and a comparison's share link, the classroom, the glossary, a shared report and the offline HTML viewer with its glossary dialog. The layout and
 * accessibility checks (page-checks.test.ts) share each walk, so a page added here is checked by both.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterLayout } from './chromium';
import { makeShareLink } from '../../src/share/codec';
import { embedReport } from '../../src/export/embed';
import { reportToJson } from '../../src/formats/report-export';
import { makeCompareLink } from '../../src/share/compare-link';
import { compareEntries } from '../../src/pipeline/report-alignment';
import { compareReports } from '../../src/pipeline/report-comparison';
import { sampleReport } from '../unit/share/report-fixture';

/** The built app's folder: the one the global setup built into. */
const outDir = () => path.resolve(process.env.SEMECE_OUT_DIR ?? 'dist');

/** Clicks each of the shown report's tabs in turn, calling `visit` on each view. */
async function eachReportView(page: Page, prefix: string, visit: (name: string) => Promise<void>) {
  const tabs = page.locator('[role="tab"][data-view]');
  const views = await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('data-view')!));
  for (const view of views) {
    await page.locator(`[role="tab"][data-view="${view}"]`).click();
    await page
      .locator(`#view-${view}`)
      .waitFor({ timeout: 20_000 })
      .catch(() => {
        throw new Error(`${prefix}: the "${view}" tab did not open its view`);
      });
    await visit(`${prefix} ${view}`);
  }
}

/**
 * Runs the tour and returns the pages seen and, when a page failed to open, why (so a test can
 * report what it found on the pages before it together with the failure).
 */
export async function tourAll(page: Page, appUrl: string, visit: (name: string) => Promise<void>): Promise<{ pages: string[]; failure?: string }> {
  const pages: string[] = [];
  try {
    await tourPages(page, appUrl, async (name) => {
      pages.push(name);
      await visit(name);
    });
    return { pages };
  } catch (e) {
    return { pages, failure: e instanceof Error ? e.message.split('\n')[0] : String(e) };
  }
}

/**
 * Visits every page; `visit` gets the page's name once it has drawn. The tour needs no network:
 * the wizard's models step is filled with a loopback address that is never called.
 */
export async function tourPages(page: Page, appUrl: string, visit: (name: string) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const at = async (name: string) => {
    seen.push(name);
    // Once what the page computes after drawing (a shared report's intervals and signal comparison,
    // in the worker; a view's slices) has arrived: each sets aria-busy until then, and its tables
    // widen when it arrives. A timeout here is a page that never settles, named in the failure.
    await page
      .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: 60_000 })
      .catch(async () => {
        const busy = await page.locator('[aria-busy="true"]').evaluateAll((els) => els.map((e) => e.tagName.toLowerCase() + (e.className ? `.${e.className}` : '')));
        throw new Error(`${name}: still busy after 60 s: ${busy.join(', ')}`);
      });
    // As it is before anyone looks: which tables scroll sideways is marked after layout.
    await afterLayout(page);
    await visit(name);
  };

  await page.goto(appUrl);
  await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached', timeout: 60_000 });
  // The table for a paper opened, so its choices and preview are measured and audited too.
  await page.locator('[data-paper-table] summary').click();
  // Its inside is loaded when first opened.
  await page.locator('[data-paper-table] [data-table="paper"]').waitFor({ timeout: 60_000 });
  await eachReportView(page, 'home', at);
  // A question's drill-down: its classes, samples and raw replies.
  await page.locator('[role="tab"][data-view="questions"]').click();
  await page.locator('[data-table="questions"] tbody tr button.open').first().click();
  await page.locator('[data-drill]').waitFor();
  await at('home drill-down');

  await page.goto(`${appUrl}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();
  await page.getByRole('heading', { name: /^Step 1 of/ }).waitFor();
  await at('wizard dataset');
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('heading', { name: /^Step 2 of/ }).waitFor();
  await page.getByLabel('Provider').selectOption('openai');
  await page.getByLabel('Model id').fill('test-model');
  await page.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await page.getByLabel(/^API key/).fill('sk-tour-not-a-key');
  await at('wizard models');
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('heading', { name: /^Step 3 of/ }).waitFor();
  // The "Advanced: scoring" fold-out open, so its fields are measured and audited too.
  await page.getByTestId('scoring-advanced').getByText('Advanced: scoring').click();
  await at('wizard settings');
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('heading', { name: /^Step 4 of/ }).waitFor();
  await at('wizard review');

  await page.goto(`${appUrl}#/runs`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await at('runs');

  await page.goto(`${appUrl}#/open`);
  await page.locator('input[data-control="report-file"]').waitFor({ state: 'attached' });
  await at('open report');

  // Compare and Leaderboard, each with report files chosen and its result drawn.
  const files = [sampleReport({ questions: 10 }), sampleReport({ questions: 12 })].map((doc, i) => ({ name: `r${i}.json`, mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) }));
  for (const [route, done] of [['compare', '[data-compare-charts] [data-chart="reliability"]'], ['leaderboard', '[data-table="leaderboard"] tbody tr']] as const) {
    await page.goto(`${appUrl}#/${route}`);
    // Within the page: the one before it may still be on screen for a moment (a hash change).
    const shown = page.locator(`[data-page="${route}"]`);
    await shown.locator('input[data-control="compare-files"]').setInputFiles(files);
    await shown.locator('[data-action="compare-go"]').click();
    await page.locator(done).first().waitFor({ timeout: 60_000 });
    await at(route);
  }
  // A comparison opened from its share link (numbers only, no charts).
  const compared = makeCompareLink({ kind: 'comparison', value: compareReports(compareEntries([{ source: 'r.json', document: sampleReport({ questions: 10 }) }]), { B: 50 }) }, appUrl);
  if (!compared.ok) throw new Error(`comparison link: ${compared.error.message}`);
  await page.goto(compared.value.url);
  await page.locator('[data-page="shared-compare"] [data-table="differences"]').waitFor({ timeout: 60_000 });
  await at('shared comparison');

  await page.goto(`${appUrl}#/classroom`);
  await page.locator('[data-page="classroom"] [data-chart]').first().waitFor({ timeout: 60_000 });
  await at('classroom');
  // Large text (for a projector) enlarges the page's and the charts' text.
  await page.locator('[data-control="large-text"]').check();
  await at('classroom large text');
  await page.locator('[data-control="large-text"]').uncheck();

  await page.goto(`${appUrl}#/glossary`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await at('glossary');

  const link = makeShareLink(sampleReport({ questions: 10 }), appUrl);
  if (!link.ok) throw new Error(`share link: ${link.error.message}`);
  await page.goto(link.value.url);
  await page.locator('[data-shared-banner]').waitFor({ timeout: 60_000 });
  await eachReportView(page, 'shared', at);

  const file = path.join(mkdtempSync(path.join(tmpdir(), 'semece-tour-')), 'report.html');
  writeFileSync(file, embedReport(readFileSync(path.join(outDir(), 'report-viewer.html'), 'utf8'), sampleReport({ questions: 10 })).html);
  await page.goto(pathToFileURL(file).href);
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  await eachReportView(page, 'offline', at);
  // The offline file's glossary: a term's link opens it in a dialog (the file has no router).
  await page.locator('.report-foot a[href="#/glossary"]').click();
  await page.locator('[data-glossary-dialog][open]').waitFor();
  await at('offline glossary');
  await page.keyboard.press('Escape');
  return seen;
}
