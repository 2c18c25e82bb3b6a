import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const KEY = 'sk-typed-not-remembered-0123456789';

test('the wizard keeps its draft across Back, Forward, another page and a reload; the steps are history entries; no key is kept', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const step = () => page.getByRole('heading', { name: /^Step \d of 4/ }).textContent();
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();
  expect(page.url()).toMatch(/#\/new\/1$/);

  await page.getByLabel('A file of my own').check();
  await page.getByLabel('Dataset file').setInputFiles({ name: 'quiz.csv', mimeType: 'text/csv', buffer: Buffer.from('frage,antwort\nWhat is 2+2?,4\nWho wrote Hamlet?,Shakespeare\n') });
  await page.getByLabel('frage').selectOption('question');
  await page.getByLabel('antwort').selectOption('answer');
  await page.getByText(/^2 questions ready/).waitFor();
  await page.getByRole('button', { name: /^Next:/ }).click();
  // The step follows the address, which the router reads after the hash changes: wait for it.
  await page.getByRole('heading', { name: /^Step 2 of 4/ }).waitFor();
  expect(await step()).toMatch(/Step 2 of 4: Models/);
  expect(page.url()).toMatch(/#\/new\/2$/);
  await page.getByLabel('Provider').selectOption('vllm');
  await page.getByLabel('Model id').fill('my-local-model');
  await page.getByLabel(/^API key/).fill(KEY);

  await page.goBack();
  await page.getByText(/^2 questions ready/).waitFor();
  await page.getByRole('heading', { name: /^Step 1 of 4/ }).waitFor();
  expect(await step()).toMatch(/Step 1 of 4: Dataset/);
  expect(await page.getByLabel('frage').inputValue()).toBe('question');
  await page.goForward();
  await page.getByLabel('Model id').waitFor();
  expect(await page.getByLabel('Model id').inputValue()).toBe('my-local-model');

  // Another page and back, then a reload: the same draft, at the same step.
  await page.getByRole('link', { name: 'Runs', exact: true }).click();
  await page.waitForURL(/#\/runs/);
  await page.goBack();
  await page.getByLabel('Model id').waitFor();
  expect(await page.getByLabel('Model id').inputValue()).toBe('my-local-model');
  await page.reload();
  await page.getByLabel('Model id').waitFor();
  await page.getByRole('heading', { name: /^Step 2 of 4/ }).waitFor();
  expect(await step()).toMatch(/Step 2 of 4: Models/);
  expect(await page.getByLabel('Model id').inputValue()).toBe('my-local-model');
  expect(await page.getByLabel('Provider').inputValue()).toBe('vllm');
  // The key was typed, not remembered: a reload forgets it, and the draft never held it.
  expect(await page.getByLabel(/^API key/).inputValue()).toBe('');
  const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
  expect(stored).toContain('my-local-model');
  expect(stored).not.toContain(KEY);
  await page.getByRole('button', { name: /^Back/ }).click();
  await page.getByText(/^2 questions ready/).waitFor();
  expect(await page.getByRole('cell', { name: 'Who wrote Hamlet?' }).count()).toBe(1);
  await screenshot(page, 'run-wizard-draft-restored');

  // An address past a step with problems opens the first step that needs attention.
  await page.getByLabel('Built-in demo questions (general knowledge, with accepted answers)').check();
  await page.getByLabel('How many demo questions').fill('0');
  await page.goto(`${inject('appUrl')}#/new/4`);
  await page.getByRole('heading', { name: /^Step 1 of 4/ }).waitFor();

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
