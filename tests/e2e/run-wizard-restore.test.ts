/**
 * A New run draft that cannot be put back as it was never gives a blank page: reloading on the
 * Review step after uploading a file shows the Review again once the kept file is read again
 * (every later reload too); a file too large to keep is asked for again with a note while the
 * other settings stay; a draft that cannot be read, or is hand-edited into the wrong shape, is
 * dropped (or the wrong parts left at their defaults) with a one-line note, and the wizard works.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const STORAGE_KEY = 'semece-new-run-draft';
const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();
const heading = (page: Page, step: number) => page.getByRole('heading', { name: new RegExp(`^Step ${step} of 4`) });

/** Uploads a file, names a model on a local server (nothing is sent before Start), and opens the Review step. */
async function toReview(page: Page, file: { name: string; text: string }): Promise<void> {
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByLabel('A file of my own').check();
  await page.getByLabel('Dataset file').setInputFiles({ name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.text) });
  await page.getByText(/questions ready/).waitFor({ timeout: 60_000 });
  await next(page);
  await heading(page, 2).waitFor();
  await page.getByLabel('Provider').selectOption('vllm');
  await page.getByLabel('Model id').fill('kept-model');
  await next(page);
  await heading(page, 3).waitFor();
  await page.getByLabel('Samples per question (n)').fill('7');
  await next(page);
  await heading(page, 4).waitFor();
}

test('reloading on the Review step after uploading a file shows the Review again, on every reload', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await toReview(page, { name: 'quiz.csv', text: 'question,answer\nWhat is 2+2?,4\nWho wrote Hamlet?,Shakespeare\nWhat is the capital of Peru?,Lima\n' });
  for (const round of [1, 2]) {
    await page.reload();
    await heading(page, 4).waitFor();
    // The kept file was read again: its questions are in the Review's numbers.
    await page.getByText(/^3 questions × 7 samples × 1 model/).waitFor();
    expect(await page.getByRole('button', { name: 'Start run' }).isEnabled(), `reload ${round}`).toBe(true);
  }
  await screenshot(page, 'run-wizard-restore-review');
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a file too large to keep is asked for again with a note; the other settings are kept', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  // Over the 1.5 M characters session storage keeps (MAX_KEPT_FILE_CHARS).
  const rows = Array.from({ length: 40_000 }, (_, i) => `Question number ${i} asked of the model in full words?,answer ${i}`);
  await toReview(page, { name: 'large.csv', text: `question,answer\n${rows.join('\n')}\n` });
  await page.reload();
  await heading(page, 1).waitFor();
  expect(page.url()).toMatch(/#\/new\/1$/);
  expect(await page.getByTestId('choose-file-again').textContent()).toBe('large.csv was too large to keep across the reload: choose it again. Your other settings are kept.');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'run-wizard-restore-file-again-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByLabel('Dataset file').setInputFiles({ name: 'small.csv', mimeType: 'text/csv', buffer: Buffer.from('question,answer\nWhat is 2+2?,4\n') });
  await page.getByText(/^1 questions ready/).waitFor();
  await next(page);
  expect(await page.getByLabel('Model id').inputValue()).toBe('kept-model');
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a draft that cannot be read, or of the wrong shape, is dropped with a one-line note and the wizard works', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/new`);
  await heading(page, 1).waitFor();

  // Not JSON at all: dropped, and the next reload starts clean.
  await page.evaluate((key) => sessionStorage.setItem(key, '{"version":1,"step":3,'), STORAGE_KEY);
  await page.reload();
  await heading(page, 1).waitFor();
  expect(await page.getByTestId('draft-note').textContent()).toBe('The saved draft of this page could not be read, so it was dropped: the wizard starts afresh.');
  await screenshot(page, 'run-wizard-restore-dropped');
  await page.reload();
  await heading(page, 1).waitFor();
  expect(await page.getByTestId('draft-note').count()).toBe(0);

  // Hand-edited: the Review step of a file draft with no file, a prompt that is not text, models that are not models.
  const edited = { version: 1, step: 3, datasetChoice: 'file', mapping: {}, sampling: { n: 5, temperature: 1, maxTokens: 64, concurrency: 2, prompt: 42 }, models: 'gpt', title: 'Hand-edited' };
  await page.goto(`${inject('appUrl')}#/new/4`);
  // The app answers the address on its own time (a hashchange, then the page's module): with the
  // default draft (the demo questions, a default model) it opens the Review and saves that step.
  // Wait for both, or the app's save can land after the hand-edited draft below and replace it.
  await heading(page, 4).waitFor();
  await page.waitForFunction((key) => JSON.parse(sessionStorage.getItem(key) ?? '{}').wizard?.step === 3, STORAGE_KEY);
  await page.evaluate(([key, value]) => sessionStorage.setItem(key, value), [STORAGE_KEY, JSON.stringify(edited)]);
  await page.reload();
  await heading(page, 1).waitFor();
  expect(await page.getByTestId('draft-note').textContent()).toBe('Part of the saved draft could not be restored and was left at its default (models, sampling settings).');
  expect(await page.getByText('Choose a dataset file, or use the demo questions.').count()).toBe(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'run-wizard-restore-edited-390');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'run-wizard-restore-edited-390-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  // Usable: the demo questions, then on through every step to the Review.
  await page.getByLabel('Built-in demo questions (general knowledge, with accepted answers)').check();
  await next(page);
  await heading(page, 2).waitFor();
  await page.getByLabel('Provider').selectOption('vllm');
  await next(page);
  await heading(page, 3).waitFor();
  expect(await page.getByLabel('Samples per question (n)').inputValue()).toBe('50');
  await next(page);
  await heading(page, 4).waitFor();
  expect(await page.getByLabel('Run title').inputValue()).toBe('Hand-edited');
  expect(await page.getByRole('button', { name: 'Start run' }).isEnabled()).toBe(true);

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
