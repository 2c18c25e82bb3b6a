import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { demoDocument } from './report-fixture';
import { reportToJson } from '../../src/formats/report-export';
import { DB_NAME } from '../../src/store/schema';
import { modelMetrics } from '../../src/pipeline/score-stage';
import { readFileSync } from 'node:fs';
import { parseReport } from '../../src/formats/report-import';
import { expectHeadlineNumbers, expectQuestionRows } from './share-report-checks';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('#/open renders a report file the same as the home page, and text stays text', async () => {
  const doc = demoDocument();
  // A hostile label must appear as text, not as markup.
  doc.title = 'Opened <img src=x onerror="window.__pwned=1"> report';
  doc.demo = false;
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('h1', { hasText: 'Open a report' }).waitFor();
  await screenshot(page, 'open-report');
  await page.locator('input[data-control="report-file"]').setInputFiles({
    name: 'report.json',
    mimeType: 'application/json',
    buffer: Buffer.from(reportToJson(doc)),
  });
  await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached' });
  expect(await page.locator('[data-report] h1.report-title').textContent()).toBe(doc.title);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('[data-demo-label]').count()).toBe(0);
  const ece = await page.locator('[data-table="headline"] tbody tr').first().locator('td[data-ece="sem1"]').getAttribute('data-value');
  expect(Number(ece)).toBe(doc.models[0].metrics.signals.sem1!.ece);
  await screenshot(page, 'open-report-loaded');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('#/open opens a report file written by the first version-1 build, upgraded, with its numbers as written', async () => {
  // tests/fixtures/report-versions/README.md: what `semece score --report` wrote on 2026-11-29.
  const text = readFileSync('tests/fixtures/report-versions/v1-first.json', 'utf8');
  expect(JSON.parse(text).version).toBe(1);
  const written = parseReport(text);
  if (!written.ok) throw new Error(written.error.message);
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'v1-first.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-open-error]').count()).toBe(0);
  await expectHeadlineNumbers(page, written.value);
  await expectQuestionRows(page, written.value);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('#/open refuses a file that is not a report with a message naming the problem', async () => {
  const { page, context } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"something-else"}'),
  });
  const error = page.locator('[data-open-error]');
  await error.waitFor();
  expect(await error.textContent()).toContain('notes.json');
  expect(await error.textContent()).toContain('format');
  await screenshot(page, 'open-report-refused');
  await context.close();
});

test('#/report/<id> with no saved report says so', async () => {
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/report/does-not-exist`);
  await page.locator('h1', { hasText: 'No report here' }).waitFor();
  await screenshot(page, 'saved-report-missing');
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('#/report/<id> shows a report saved with its run, and a grade override is saved with it', async () => {
  const doc = demoDocument();
  doc.demo = false;
  doc.title = 'Saved run report';
  const { page, context, consoleErrors } = await openPage(browser);
  // Visiting the route lets the app create its database with its own schema first.
  await page.goto(`${inject('appUrl')}#/report/seeded-run`);
  await page.locator('h1', { hasText: 'No report here' }).waitFor();
  await page.evaluate(
    async ([name, document]) => {
      const db = await new Promise<IDBDatabase>((res, rej) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      await new Promise<void>((res, rej) => {
        const tx = db.transaction('reports', 'readwrite');
        tx.objectStore('reports').put({ runId: 'seeded-run', document, savedAt: new Date().toISOString() });
        tx.oncomplete = () => res();
        tx.onerror = () => rej(tx.error);
      });
      db.close();
    },
    [DB_NAME, JSON.parse(reportToJson(doc))] as const,
  );
  await page.reload();
  await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached' });
  expect(await page.locator('[data-report] h1.report-title').textContent()).toBe('Saved run report');

  const target = doc.models[0].questions.find((q) => q.correct === 1)!;
  await page.locator('button[data-view="questions"]').click();
  await page.locator('input[data-control="search"]').fill(target.id);
  await page.locator(`tr[data-id="${target.id}"] button.open`).click();
  await page.locator('select[data-control="grade"]').selectOption('INCORRECT');
  await page.locator('[data-recomputing="false"]').waitFor({ state: 'attached' });
  await expect
    .poll(() =>
      page.evaluate(async ([name, id]) => {
        const db = await new Promise<IDBDatabase>((res) => {
          const r = indexedDB.open(name);
          r.onsuccess = () => res(r.result);
        });
        const get = <T,>(store: string, key: IDBValidKey) =>
          new Promise<T>((res) => {
            const q = db.transaction(store).objectStore(store).get(key);
            q.onsuccess = () => res(q.result as T);
          });
        const override = await get<{ grade: string } | undefined>('gradeOverrides', ['seeded-run', 'demo-model-a (simulated)', id]);
        const saved = await get<{ document: { models: { questions: { id: string; overridden?: boolean }[] }[] } }>('reports', 'seeded-run');
        db.close();
        return { grade: override?.grade, overridden: saved.document.models[0].questions.find((q) => q.id === id)?.overridden };
      }, [DB_NAME, target.id] as const),
    )
    .toEqual({ grade: 'INCORRECT', overridden: true });
  await screenshot(page, 'saved-report-overridden');

  // After a reload the saved report still carries the override.
  await page.reload();
  await page.locator('button[data-view="questions"]').click();
  await page.locator('select[data-control="outcome"]').selectOption('overridden');
  expect(await page.locator('[data-table="questions"] tbody tr').count()).toBe(1);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('reports with no models, or a model with no scored question, render without errors', async () => {
  const base = demoDocument();
  const empty = { ...base, demo: false, title: 'No models', models: [] };
  const noRows = {
    ...base,
    demo: false,
    title: 'Nothing scored',
    models: [{ model: 'all-excluded', metrics: modelMetrics([], { excluded: 2 }), questions: [], excludedQuestions: [{ id: 'a', reason: 'clustering failed' }, { id: 'b', reason: 'grading failed' }] }],
  };
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  const input = page.locator('input[data-control="report-file"]');
  await input.setInputFiles({ name: 'empty.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(empty)) });
  await page.locator('[data-empty-report]').waitFor();
  await page.locator('button', { hasText: 'Open another report' }).click();
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'none.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(noRows)) });
  await page.locator('[data-chart="reliability"]').waitFor();
  expect(await page.locator('[data-chart="reliability"] rect.bar').count()).toBe(0);
  await page.locator('button[data-view="difficulty"]').click();
  await page.locator('[data-chart="gap"]').waitFor();
  await page.locator('button[data-view="questions"]').click();
  expect(await page.locator('[data-excluded]').getAttribute('data-excluded')).toBe('2');
  await screenshot(page, 'open-report-nothing-scored');
  expect(consoleErrors).toEqual([]);
  await context.close();
});
