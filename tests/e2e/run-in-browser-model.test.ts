/**
 * A complete run with no key and no server: the wizard's "In this browser (no key)" provider with
 * the shipped tiny causal model (its answers a known lookup table), sampled in the page's
 * generation worker through Transformers.js on WASM, clustered by entailment with the shipped
 * tiny NLI model (whose groups keep this model's answers apart, so the classes are the distinct
 * answers), graded by alias, scored into a report. The report's mean Sem1 must be within Monte
 * Carlo error of the value the model's table implies; nothing leaves loopback. A run cancelled
 * while the page is generating stops, and resumed, the same in-page model finishes it.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { TINY_TOPICS, answerText, modalFrequencyMoments, probabilities } from '../../scripts/tiny-causal-lm-table';
import { readAppDatabase } from './run-helpers';

const N = 20;
const COPIES = 3;
const topics = TINY_TOPICS.slice(1);
/** Each known question three times under its own id: 12 questions, each sampled on its own. */
const rows = topics.flatMap((t, k) => Array.from({ length: COPIES }, (_, c) => ({ id: `t${k + 1}-${c + 1}`, topic: t, question: t.question, answer: t.gold })));
const csv = ['id,question,answer', ...rows.map((r) => `${r.id},${r.question},${r.answer}`)].join('\n');

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();

type SavedQuestion = { id: string; sem1: number; nClasses: number; samples?: { answer: string; cls: number }[] };
type Saved = { document: { testModel?: string[]; settings: { clustering: { method: string } }; models: { model: string; questions: SavedQuestion[] }[] } };
type SavedRun = { progress: { notes: string[]; tokens: { output: number } }; status: string };


/** The wizard's steps up to the models step, with the tiny model chosen. */
async function chooseTinyModel(page: Page, text: string) {
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();
  await page.getByLabel('A file of my own').check();
  await page.getByLabel('Dataset file').setInputFiles({ name: 'tiny.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.getByText(/questions ready/).waitFor();
  await next(page);
  await page.getByLabel('Provider').selectOption('in-browser');
  await page.getByLabel('Model', { exact: true }).selectOption('tiny-causal-lm');
}

test('no key: the in-page tiny model → entailment → alias grading → a report whose Sem1 matches the model’s table', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await chooseTinyModel(page, csv);
  expect(await page.getByTestId(/-local-size$/).textContent()).toContain('"tiny-causal-lm" is shipped with this app: nothing is downloaded');
  // Another listed model shows its download size before anything is fetched.
  await page.getByLabel('Model', { exact: true }).selectOption('HuggingFaceTB/SmolLM2-135M-Instruct');
  expect(await page.getByTestId(/-local-size$/).textContent()).toContain('about 200 MB from the Hugging Face hub');
  await page.getByLabel('Model', { exact: true }).selectOption('tiny-causal-lm');
  // No address, no key, no connection test for a model in the page.
  expect(await page.getByLabel(/^API key/).count()).toBe(0);
  expect(await page.getByLabel('Base URL').count()).toBe(0);
  await screenshot(page, 'wizard-in-browser-model');
  await next(page);

  await page.getByLabel('Samples per question (n)').fill(String(N));
  await page.getByLabel(/^Entailment/).check();
  await page.getByLabel('NLI model').fill('tiny-nli');
  await page.getByLabel('Use shipped models only (never download from the Hugging Face hub)').last().check();
  await next(page);

  expect(await page.getByTestId('generation-review').textContent()).toContain('"tiny-causal-lm" is shipped with this app');
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//).catch(async (e) => {
    throw new Error(`${e.message}\n${await page.locator('main').innerText()}\n${consoleErrors.join('\n')}`);
  });
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 60_000 }).catch(async (e) => {
    throw new Error(`${e.message}\n${await page.locator('main').innerText()}\n${consoleErrors.join('\n')}`);
  });

  const { all } = await readAppDatabase(page, { all: ['reports', 'runs'] });
  const reports = all.reports as Saved[];
  const runs = all.runs as SavedRun[];
  expect(reports).toHaveLength(1);
  const doc = reports[0].document;
  expect(doc.settings.clustering.method).toBe('entailment');
  expect(doc.models[0].model).toBe('in-browser/tiny-causal-lm');
  // Toy models give a normal-looking report: it is marked so that every view labels it.
  expect(doc.testModel).toEqual(['tiny-causal-lm', 'tiny-nli']);
  const questions = doc.models[0].questions;
  expect(questions).toHaveLength(rows.length);
  let expected = 0;
  let variance = 0;
  for (const q of questions) {
    const topic = rows.find((r) => r.id === q.id)!.topic;
    const allowed = topic.answers.map(answerText);
    for (const s of q.samples ?? []) expect(allowed).toContain(s.answer);
    // Entailment keeps this model's distinct answers apart: one class per answer seen.
    if (q.samples) expect(q.nClasses).toBe(new Set(q.samples.map((s) => s.answer)).size);
    const m = modalFrequencyMoments(probabilities(topic.answers), N);
    expected += m.mean / questions.length;
    variance += m.variance / questions.length ** 2;
  }
  const mean = questions.reduce((s, q) => s + q.sem1, 0) / questions.length;
  // 4.5 standard errors of the mean of independent questions' Sem1.
  expect(Math.abs(mean - expected)).toBeLessThanOrEqual(4.5 * Math.sqrt(variance));

  const run = runs.find((r) => r.status === 'done')!;
  expect(run.progress.notes.some((n) => /in-browser\/tiny-causal-lm: generated in this browser on WASM/.test(n))).toBe(true);
  // Seven tokens per reply: Answer:, the answer, a newline, Confidence:, the value, %, the end.
  expect(run.progress.tokens.output).toBe(7 * N * rows.length);

  await page.getByRole('link', { name: 'Open the report' }).click();
  await page.getByText(/clustering: entailment/).first().waitFor({ timeout: 30_000 });
  expect(await page.locator('[data-test-model-label]').innerText()).toMatch(/^Test model: tiny-causal-lm, tiny-nli\b.*Not a measurement of any real model\.$/);
  await screenshot(page, 'report-in-browser-model');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'report-in-browser-model-390');

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('cancelling a run while the page is generating stops it; resumed, the same model in the page finishes every sample', async () => {
  // 1,200 samples, about 100 batches of 12: the cancel lands after the first, long before the last.
  const few = rows;
  const n = 100;
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await chooseTinyModel(page, ['id,question,answer', ...few.map((r) => `${r.id},${r.question},${r.answer}`)].join('\n'));
  await next(page);
  await page.getByLabel('Samples per question (n)').fill(String(n));
  await next(page);
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);
  const done = page.getByTestId('samples-done');
  const doneCount = async () => Number((await done.textContent())?.split(' / ')[0].replace(/,/g, '') ?? 0);
  // Some samples in, not all: generation is under way.
  await expect.poll(doneCount, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.locator('[data-status="cancelled"]').waitFor({ timeout: 60_000 }).catch(async (e) => {
    throw new Error(`${e.message}\n${await page.locator('main').innerText()}\n${consoleErrors.join('\n')}`);
  });
  expect(await doneCount()).toBeLessThan(n * few.length);

  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  expect(await done.textContent()).toBe(`${(n * few.length).toLocaleString('en')} / ${(n * few.length).toLocaleString('en')}`);
  const { all } = await readAppDatabase(page, { all: ['reports'] });
  const doc = (all.reports as Saved[])[0].document;
  expect(doc.models[0].questions.map((q) => q.samples?.length)).toEqual(few.map(() => n));
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
