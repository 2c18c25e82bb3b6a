import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openPage, screenshot, widthAt } from './chromium';
import { closeWithMock, launchWithMock } from './wizard-helpers';
import { HLE_TOKEN, PARQUET, catalogueRepos, parquet, simpleQaRows } from '../mock/hub-datasets';
import { startMockHub, type MockHub } from '../mock/hub-server';
import type { MockProviderServer } from '../mock/provider-server';

const KEY = 'sk-hub-browser-test-0123456789';
let browser: Browser;
let mock: MockProviderServer;
let hub: MockHub;

beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({
    apiKey: KEY,
    // Every SimpleQA question answered "answer N" most of the time: alias grading finds it right.
    questions: simpleQaRows().map((r, i) => ({ match: r.problem, id: `q${String(i + 1).padStart(4, '0')}`, answers: { [r.answer]: 3, 'something else': 1 } })),
  }));
  const good = parquet([{ name: 'q', data: ['A?'], type: 'STRING' }, { name: 'a', data: ['a'], type: 'STRING' }]);
  hub = await startMockHub({ ...catalogueRepos(), 'someone/cut': { files: { [PARQUET]: { 'default/train/0000.parquet': good.slice(0, good.length - 8) } } } });
});
afterAll(async () => {
  await hub?.close();
  await closeWithMock(browser, mock);
});

/** The browser reports the hub's deliberate 401 and 404 answers as failed loads; nothing else may be logged. */
const unexpected = (errors: string[]) => errors.filter((e) => !/Failed to load resource: the server responded with a status of (401|404)/.test(e));

async function openHubChoice(page: Page) {
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();
  await page.getByLabel(/A benchmark from the Hugging Face hub/).check();
  await page.getByText('Hub address (for a mirror)').click();
  await page.getByLabel('Hub address').fill(hub.url);
}

test('a catalogue benchmark from the hub in three clicks, a seeded subset, a run, and a report that names its questions; the second load reads nothing from the network', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await openHubChoice(page);
  await page.getByLabel('Benchmark', { exact: true }).selectOption('simpleqa');
  await page.getByRole('button', { name: 'Load the dataset' }).click();
  await page.getByText(/^12 questions ready/).waitFor();
  expect(await page.getByTestId('hub-files').textContent()).toMatch(/1 file, .* downloaded and kept on this device/);
  expect(await page.getByRole('cell', { name: 'SimpleQA question 1?' }).count()).toBe(1);

  // The same load again: from IndexedDB, with no request to the hub.
  const before = hub.requests.length;
  await page.getByRole('button', { name: 'Load again' }).click();
  await page.getByText(/read from this device \(nothing downloaded\)/).waitFor();
  expect(hub.requests.length).toBe(before);

  await page.getByLabel(/Ask a random subset/).check();
  await page.getByLabel('How many').fill('4');
  await page.getByLabel('Seed', { exact: true }).fill('1');
  await page.getByLabel('Seed', { exact: true }).press('Tab');
  await page.getByText(/^4 questions ready/).waitFor();
  expect(await page.getByTestId('subset-line').textContent()).toMatch(/4 of 12 questions, drawn with seed 1, in proportion to each category/);
  await screenshot(page, 'run-hub-dataset');
  // On a phone this page scrolls no sideways.
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByLabel('Provider').selectOption('openai');
  await page.getByLabel('Model id').fill('gpt-4o-mini');
  await page.getByLabel('Base URL').fill(`${mock.url}/v1`);
  await page.getByLabel(/^API key/).fill(KEY);
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByLabel('Samples per question (n)').fill('4');
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);
  await page.getByRole('link', { name: 'Open the report' }).click({ timeout: 60_000 });
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  const line = await page.locator('[data-subset]').textContent();
  expect(line).toMatch(/Questions: 4 of 12 questions, drawn with seed 1, in proportion to each category from hub:basicv8vc\/SimpleQA:default\/test/);
  // Exactly the drawn questions were asked.
  expect(Object.keys(mock.stats().served).filter((id) => id.startsWith('q')).sort()).toHaveLength(4);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the question ids' }).click();
  const file = await (await download).path();
  const ids = JSON.parse(await (await import('node:fs/promises')).readFile(file, 'utf8'));
  expect(ids).toMatchObject({ source: 'hub:basicv8vc/SimpleQA:default/test', of: 12, seed: 1, stratifiedBy: 'category' });
  expect(ids.ids.sort()).toEqual(Object.keys(mock.stats().served).filter((id) => id.startsWith('q')).sort());

  expect(offLoopback).toEqual([]);
  expect(unexpected(consoleErrors)).toEqual([]);
  await context.close();
});

test('a gated dataset asks for a token and loads with one; a truncated Parquet file and a missing split are refused with what to do', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await openHubChoice(page);
  await page.getByLabel('Benchmark', { exact: true }).selectOption('hle');
  await page.getByRole('button', { name: 'Load the dataset' }).click();
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').textContent()).toMatch(/cais\/hle needs a Hugging Face token .*accept its conditions/);
  expect(await page.getByRole('button', { name: /^Next:/ }).isDisabled()).toBe(true);
  await page.getByLabel(/^Hugging Face token/).fill(HLE_TOKEN);
  await page.getByRole('button', { name: 'Load the dataset' }).click();
  await page.getByText(/^2 questions ready; 1 rows skipped/).waitFor();

  await page.getByLabel('Benchmark', { exact: true }).selectOption('other');
  await page.getByLabel('Dataset id').fill('someone/cut');
  await page.getByRole('button', { name: 'Load the dataset' }).click();
  await page.getByText(/Not a complete Parquet file/).waitFor();
  await page.getByLabel('Split', { exact: true }).fill('nope');
  await page.getByRole('button', { name: 'Load the dataset' }).click();
  await page.getByText(/split "nope" of someone\/cut \(404\)/).waitFor();
  await screenshot(page, 'run-hub-dataset-error');
  expect(await page.getByRole('button', { name: /^Next:/ }).isDisabled()).toBe(true);

  expect(offLoopback).toEqual([]);
  expect(unexpected(consoleErrors)).toEqual([]);
  await context.close();
});
