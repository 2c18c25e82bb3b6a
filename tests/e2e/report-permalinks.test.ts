/**
 * Permalinks (issue 25): the report's tab, the questions table's model, filters, search and
 * open question live in the URL's fragment, after a `?`, in the app, a share link and the
 * offline HTML file: opening such a URL shows that view, and changing the view rewrites it.
 * And the offline file's glossary links open their entry without a network or a router.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { builtAppDir } from './built-app';
import { makeShareLink } from '../../src/share/codec';
import { embedReport } from '../../src/export/embed';
import { sampleReport } from '../unit/share/report-fixture';
import { demoDocument } from './report-fixture';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const fragment = (page: Page) => page.evaluate(() => location.hash);
const params = async (page: Page) => Object.fromEntries(new URLSearchParams((await fragment(page)).split('?')[1] ?? ''));

/** The questions view as the URL names it: model b, incorrect only, searched, q2 open. */
async function expectRestored(page: Page, model: string | null, search: string, open: string) {
  await page.locator(`[data-drill="${open}"]`).waitFor({ timeout: 60_000 });
  expect(await page.locator('[role="tab"][data-view="questions"]').getAttribute('aria-selected')).toBe('true');
  expect(await page.locator('[data-control="search"]').inputValue()).toBe(search);
  expect(await page.locator('[data-control="outcome"]').inputValue()).toBe('incorrect');
  if (model) expect(await page.locator('#view-questions select').first().evaluate((s: HTMLSelectElement) => s.selectedOptions[0].textContent)).toBe(model);
}

/** Changing the view rewrites the URL, without a new history entry or reloading the page. */
async function expectWritten(page: Page) {
  const entries = await page.evaluate(() => history.length);
  await page.locator('[data-control="outcome"]').selectOption('correct');
  await page.locator('[data-control="search"]').fill('q1');
  await expect.poll(() => params(page)).toMatchObject({ view: 'questions', outcome: 'correct', q: 'q1' });
  await page.locator('[role="tab"][data-view="difficulty"]').click();
  await expect.poll(() => params(page)).toMatchObject({ view: 'difficulty' });
  await page.locator('[role="tab"][data-view="calibration"]').click();
  await expect.poll(async () => (await params(page)).view).toBeUndefined();
  expect(await page.evaluate(() => history.length)).toBe(entries);
}

test('app: a URL with view state opens that view; changing it updates the URL; a hand-edited URL is followed', async () => {
  const doc = demoDocument();
  const m = doc.models[1];
  const q = m.questions.find((x) => x.correct === 0)!;
  const { page, context, consoleErrors } = await openPage(browser);
  const query = new URLSearchParams({ view: 'questions', model: m.model, outcome: 'incorrect', q: q.id, open: q.id }).toString();
  await page.goto(`${inject('appUrl')}#/?${query}`);
  await expectRestored(page, m.model, q.id, q.id);
  await screenshot(page, 'permalink-app');
  // The question's own row is the one shown.
  expect(await page.locator('[data-table="questions"] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))).toEqual([q.id]);
  await expectWritten(page);
  // Edited by hand: the new fragment is shown.
  await page.evaluate((id) => (location.hash = `#/?view=questions&open=${id}`), doc.models[0].questions[2].id);
  await page.locator(`[data-drill="${doc.models[0].questions[2].id}"]`).waitFor();
  // A URL without view state is the report as it always opened.
  await page.goto(`${inject('appUrl')}#/`);
  await page.locator('[data-chart="reliability"]').first().waitFor();
  expect(await page.locator('[role="tab"][data-view="calibration"]').getAttribute('aria-selected')).toBe('true');
  expect(await fragment(page)).toBe('#/');
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('share link: the copied link carries the view; a link with view state restores it, one without opens as before', async () => {
  const doc = sampleReport({ questions: 10 });
  const link = makeShareLink(doc, inject('appUrl'));
  if (!link.ok) throw new Error(link.error.message);
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${link.value.url}?view=questions&model=model-b&outcome=incorrect&q=q&open=q2`);
  await page.locator('[data-shared-banner]').waitFor({ timeout: 60_000 });
  await expectRestored(page, 'model-b', 'q', 'q2');
  // The copied link is the report plus what is looked at now.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.locator('[data-action="share"]').click();
  const copied = await page.locator('[data-share-link]').inputValue();
  expect(copied.startsWith(link.value.url.split('#')[0] + '#/shared/')).toBe(true);
  expect(Object.fromEntries(new URLSearchParams(copied.split('?')[1]))).toEqual({ view: 'questions', model: 'model-b', outcome: 'incorrect', q: 'q', open: 'q2' });
  await expectWritten(page);
  // An existing link, without view state, still opens.
  await page.goto(link.value.url);
  await page.locator('[data-shared-banner]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[role="tab"][data-view="calibration"]').getAttribute('aria-selected')).toBe('true');
  expect(consoleErrors).toEqual([]);
  await context.close();
});

function offlineFile(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'semece-permalink-')), 'report.html');
  writeFileSync(file, embedReport(readFileSync(path.join(builtAppDir(), 'report-viewer.html'), 'utf8'), sampleReport({ questions: 10 })).html);
  return pathToFileURL(file).href;
}

test('offline HTML: a URL with view state restores it and changing the view updates the URL', async () => {
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${offlineFile()}#?view=questions&model=model-b&outcome=incorrect&q=q&open=q2`);
  await expectRestored(page, 'model-b', 'q', 'q2');
  await expectWritten(page);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

for (const [width, scheme] of [[1280, 'light'], [390, 'dark']] as const) {
  test(`offline HTML: a glossary link opens its entry, offline, and the URL stays (${width} px, ${scheme})`, async () => {
    const { page, context, consoleErrors, offLoopback } = await openPage(browser);
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    const url = offlineFile();
    await page.goto(url);
    await page.locator('[data-report]').waitFor({ timeout: 60_000 });
    // A term in the difficulty view's heading (a phone's headline cards hide their column headers' terms).
    await page.locator('[role="tab"][data-view="difficulty"]').click();
    const term = page.locator('#view-difficulty h2 a[data-term="sem1"]');
    const id = 'sem1';
    await term.click();
    const dialog = page.locator('[data-glossary-dialog]');
    await dialog.locator(`#term-${id}`).waitFor();
    expect(await dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    // The chosen entry is marked and in view.
    expect(await dialog.locator('.entry.chosen dt').textContent()).toBe(await dialog.locator(`#term-${id}`).textContent());
    expect(await dialog.locator(`#term-${id}`).isVisible()).toBe(true);
    expect(page.url()).toBe(`${url}#?view=difficulty`);
    await screenshot(page, `offline-glossary-${width}-${scheme}`);
    await page.keyboard.press('Escape');
    expect(await dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    // The footer's link to the whole glossary too.
    await page.locator('.report-foot a[href="#/glossary"]').click();
    expect(await dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    expect(consoleErrors).toEqual([]);
    expect(offLoopback).toEqual([]);
    await context.close();
  });
}
