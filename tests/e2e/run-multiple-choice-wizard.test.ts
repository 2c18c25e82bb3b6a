import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import Papa from 'papaparse';
import { elementShot, launchChromium, openPage, screenshot, widthAt } from './chromium';
import { MockProviderServer } from '../mock/provider-server';
import type { ReportDocument } from '../../src/model/report';

const OPTS4 = ['red', 'green', 'blue', 'black'];
const QUESTIONS = [
  { id: 'q1', question: 'Colour of alpha?', options: OPTS4, answer: 'A', category: 'easy' },
  { id: 'q2', question: 'Colour of beta?', options: OPTS4, answer: 'B', category: 'easy' },
  { id: 'q3', question: 'Is gamma odd?', options: ['yes', 'no'], answer: 'B', category: 'hard' },
];
const CSV = Papa.unparse(QUESTIONS.map((q) => ({ ...q, options: JSON.stringify(q.options) })), { columns: ['id', 'question', 'options', 'answer', 'category'] });
const j = (answer: string, p: number) => JSON.stringify({ answer, probability: p });
/** The stated-probability replies of runs 1, 2, 3 per question; Sem-ECE samples come after. */
const RUNS: Record<string, string[]> = {
  'Colour of alpha?': [j('A', 90), j('A', 80), j('B', 60)],
  'Colour of beta?': [j('B', 70), j('B', 100), j('B', 70)],
  'Is gamma odd?': [j('B', 50), j('A', 50), j('B', 75)],
};
// Brier per run by hand, (p − o)²: run 1 .01 + .09 + .25; run 2 .04 + 0 + .25; run 3 .36 + .09 + .0625.
const BRIER = [0.35 / 3, 0.29 / 3, 0.5125 / 3];
const SAMPLES = 4;

let browser: Browser;
let mock: MockProviderServer;
const served = new Map<string, number>();
beforeAll(async () => {
  browser = await launchChromium();
  mock = await MockProviderServer.start({ apiKey: 'mock-key', latencyMs: 5 });
  // Runs go one after another, so the k-th reply to a question is run k's; then the samples.
  mock.responder = (req) => {
    const q = /Question: (.*)/.exec(req.user)?.[1];
    if (!q || !RUNS[q]) return undefined;
    const k = served.get(q) ?? 0;
    served.set(q, k + 1);
    return RUNS[q][k] ?? j('A', 60);
  };
});
afterAll(async () => {
  await mock?.close();
  await browser?.close();
});

const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();

function savedReport(page: Page, runId: string): Promise<ReportDocument> {
  return page.evaluate(
    (id) =>
      new Promise<ReportDocument>((resolve, reject) => {
        const open = indexedDB.open('semece');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('reports', 'readonly').objectStore('reports').get(id);
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            open.result.close();
            resolve(get.result.document);
          };
        };
      }),
    runId,
  );
}

/** Dataset and model steps of the wizard, up to the settings step. */
async function toSettings(page: Page, key: string) {
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();
  await page.getByLabel('A file of my own').check();
  await page.getByLabel('Dataset file').setInputFiles({ name: 'mc.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await page.getByText(/questions ready/).waitFor();
  await next(page);

  await page.getByLabel('Provider').selectOption('openai');
  await page.getByLabel('Model id').fill('gpt-4o-mini');
  await page.getByLabel('Base URL').fill(`${mock.url}/v1`);
  await page.getByLabel(/^API key/).fill(key);
  await next(page);
}

test('a multiple-choice CSV through the wizard to the stated-probability panel, against the loopback mock', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await toSettings(page, 'mock-key');

  // The mode choice is offered because every question has options; open answers stay the default.
  await page.getByLabel(/^Open answers \(Sem-ECE\)/).waitFor();
  expect(await page.getByLabel(/^Open answers \(Sem-ECE\)/).isChecked()).toBe(true);
  await page.getByLabel(/^Multiple choice: stated probability/).check();
  expect(await page.getByLabel('Runs (repeats of every question)').inputValue()).toBe('3');
  expect(await page.getByLabel('Samples per question (n)').count()).toBe(0);
  await page.getByLabel('Sem-ECE samples per question (0 = off)').fill(String(SAMPLES));
  await page.getByLabel(/^Requests at once/).fill('2');
  await screenshot(page, 'run-mc-3-settings');
  await next(page);

  await page.getByTestId('mc-review').waitFor();
  expect(await page.getByTestId('mc-review').textContent()).toMatch(/3\s*questions × 3\s*runs/);
  // 3 runs × 3 questions, plus per question one sampling request (n = 4 fits one) and one greedy logprob request.
  const total = page.locator('tr.total td').first();
  expect(await total.textContent()).toBe(String(3 * 3 + 3 * 2));
  await screenshot(page, 'run-mc-4-review');
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);
  const runId = decodeURIComponent(page.url().split('#/run/')[1]);

  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 60_000 });
  expect(await page.locator('main').innerText()).not.toMatch(/The run stopped/);
  expect(await page.getByTestId('mc-runs').textContent()).toContain('3 / 3');
  expect(await page.getByTestId('samples-done').textContent()).toBe('15 / 15');
  // The panel speaks of asking questions: no sampling, clustering or grading rows.
  const stageNames = (await page.locator('section.progress .stages .name').allInnerTexts()).map((t) => t.replace(/\s*✓$/, '').trim());
  expect(stageNames).toEqual(['Dataset', 'Asking the questions', 'Scoring', 'Saving the report']);
  expect(await page.getByTestId('mc-stage-runs').textContent()).toBe('runs done: 3 / 3');
  const panelText = await page.locator('section.progress').innerText();
  expect(panelText).not.toMatch(/Sampling answers|Grouping by meaning|Grading|Samples/);
  expect(panelText).toContain('Questions asked');
  await screenshot(page, 'run-mc-run-page-done');
  // On a phone this page scrolls no sideways.
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });

  const doc = await savedReport(page, runId);
  expect(JSON.stringify(doc)).not.toContain('mock-key');
  const b = doc.models[0].baseline!;
  expect(b.runs).toBe(3);
  expect(b.options).toEqual([4, 4, 2]);
  for (let r = 0; r < 3; r++) expect(b.brier.perRun[r]).toBeCloseTo(BRIER[r], 12);
  expect(b.baselineBrier).toBeCloseTo((0.1875 * 2 + 0.25) / 3, 15);
  expect(doc.settings.samples).toBe(SAMPLES);
  expect(doc.models[0].questions.length).toBe(3);

  await page.getByRole('link', { name: 'Open the report' }).click();
  await page.waitForURL(new RegExp(`#/report/${runId}`));
  const panel = page.locator('[data-stated-panel]');
  await panel.locator('[data-chart="brier"] rect.bar').first().waitFor({ state: 'attached', timeout: 60_000 });
  const bars = panel.locator('rect.bar');
  expect(await bars.count()).toBe(b.runs + 1);
  for (let i = 0; i < b.runs; i++) expect(Number(await bars.nth(i).getAttribute('data-brier'))).toBe(b.brier.perRun[i]);
  const mean = BRIER.reduce((s, x) => s + x, 0) / 3;
  expect(Number(await panel.locator('rect.bar[data-bar="mean"]').getAttribute('data-brier'))).toBeCloseTo(mean, 12);
  expect(await panel.locator('[data-stated-brier]').textContent()).toContain(`the Brier score of the stated probability is ${mean.toFixed(3)}`);
  expect(await panel.locator('[data-stated-accuracy]').textContent()).toContain(`${((b.accuracy.mean) * 100).toFixed(1)}%`);
  // Accuracy by hand: runs 1 and 3 get 3 and 2 right… run 1: 3/3, run 2: 2/3, run 3: 2/3.
  expect(b.accuracy.mean).toBeCloseTo((1 + 2 / 3 + 2 / 3) / 3, 12);
  expect(await panel.locator('[data-stated-categories] tbody tr').count()).toBe(2);
  await elementShot(panel, 'run-mc-report-panel');

  await page.goto(`${inject('appUrl')}#/runs`);
  // The Runs page lists the run with its report.
  await page.locator(`a[href="#/report/${encodeURIComponent(runId)}"]`).waitFor();
  const row = await page.locator(`tr[data-run-id="${runId}"]`).innerText();
  expect(row).toContain('mc · gpt-4o-mini');
  expect(row).toContain('3 × 3 runs (multiple choice)');

  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('a multiple-choice run with a key the provider refuses stops with the cause on the run page', async () => {
  const { page, context, offLoopback } = await openPage(browser);
  await toSettings(page, 'wrong-key');
  await page.getByLabel(/^Multiple choice: stated probability/).check();
  await next(page);
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);
  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('failed');
  const text = await page.locator('main').innerText();
  expect(text).toMatch(/The run stopped: .*(key|auth|401)/i);
  expect(text).not.toContain('wrong-key');
  expect(await page.getByRole('link', { name: 'Open the report' }).count()).toBe(0);
  // Run 1's replies were all read, as failures: no run completed.
  expect(await page.getByTestId('mc-runs').textContent()).toContain('0 / 3');
  expect(await page.getByTestId('mc-stage-runs').textContent()).toBe('runs done: 0 / 3');
  await screenshot(page, 'run-mc-run-page-failed');
  expect(offLoopback).toEqual([]);
  await context.close();
});
