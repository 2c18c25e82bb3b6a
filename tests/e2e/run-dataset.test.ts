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

async function upload(page: Page, name: string, text: string) {
  await page.getByLabel('Dataset file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
}

test('the dataset step: an unknown layout is mapped by hand, a broken file is refused with its line, the demo set is ready at once', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();
  expect(await page.getByText(/questions ready/).textContent()).toMatch(/^20 questions ready/);
  await page.getByLabel('A file of my own').check();
  expect(await page.getByRole('button', { name: /^Next:/ }).isDisabled()).toBe(true);

  // Columns no benchmark uses: the page asks for a mapping, then reads the questions.
  await upload(page, 'quiz.csv', 'frage,antwort,notes\nWhat is 2+2?,4,easy\nWho wrote Hamlet?,Shakespeare,\n');
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').textContent()).toMatch(/map the columns/);
  await page.getByLabel('frage').selectOption('question');
  await page.getByLabel('antwort').selectOption('answer');
  await page.getByText(/^2 questions ready/).waitFor();
  expect(await page.getByRole('cell', { name: 'Who wrote Hamlet?' }).count()).toBe(1);
  // The file was decoded and parsed in the dataset worker, not on the page's main thread.
  expect(workers.some((u) => /dataset\.worker/.test(u))).toBe(true);
  await screenshot(page, 'run-dataset-mapped');
  expect(await page.getByRole('button', { name: /^Next:/ }).isDisabled()).toBe(false);

  // A JSONL file with a broken line: the message names the file and the line.
  await upload(page, 'broken.jsonl', '{"question":"A?","answer":"a"}\n{"question":"B?", "answer":\n{"question":"C?","answer":"c"}\n');
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').textContent()).toMatch(/broken\.jsonl.*line 2/);
  expect(await page.getByRole('button', { name: /^Next:/ }).isDisabled()).toBe(true);
  await screenshot(page, 'run-dataset-error');

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
