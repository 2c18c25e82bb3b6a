/**
 * Batch mode in the built app: a run is paused after a few interactive samples, the rest goes
 * through the OpenAI batch endpoints of the loopback mock (submitted from the batch worker), or
 * through a request file downloaded and a result file loaded; resuming the run then requests
 * nothing more and ends done — every question served exactly n samples, none paid twice.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { launchChromium, openPage, screenshot, widthAt } from './chromium';
import { startRunThroughWizard } from './run-helpers';
import { MockProviderServer } from '../mock/provider-server';

const CAPITALS: [string, Record<string, number>][] = [
  ['France', { Paris: 1 }],
  ['Spain', { Madrid: 0.8, Barcelona: 0.2 }],
  ['Italy', { Milan: 0.6, Rome: 0.4 }],
  ['Japan', { Tokyo: 0.9, Kyoto: 0.1 }],
];
const CSV = ['id,question,answer', ...CAPITALS.map(([country], i) => `b${i + 1},What is the capital of ${country}?,x`)].join('\n');
const N = 5;

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  browser = await launchChromium();
  mock = await MockProviderServer.start({
    apiKey: 'mock-key',
    latencyMs: 1500,
    questions: CAPITALS.map(([country, answers], i) => ({ match: `What is the capital of ${country}?`, id: `b${i + 1}`, answers })),
  });
});
afterAll(async () => {
  await mock?.close();
  await browser?.close();
});

async function pausedRun(page: import('playwright-core').Page) {
  const runId = await startRunThroughWizard(page, inject('appUrl'), { file: { name: 'capitals.csv', text: CSV }, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: 'mock-key', n: N, concurrency: 1 });
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.locator('[data-status="paused"]').waitFor({ timeout: 60_000 });
  return runId;
}

async function resumeToDone(page: import('playwright-core').Page) {
  const before = mock.stats().requests;
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 60_000 });
  expect(await page.locator('main').innerText()).not.toMatch(/The run stopped/);
  expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('done');
  // Resuming asked the chat endpoint for nothing: every sample was already stored.
  expect(mock.stats().requests).toBe(before);
  expect(await page.getByTestId('samples-done').textContent()).toBe(`${CAPITALS.length * N} / ${CAPITALS.length * N}`);
}

test('submit: the paused run\'s missing samples go through the batch API, then the run completes without new requests', async () => {
  mock.resetStats();
  mock.batches.configure({ pollsUntilDone: 2 });
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await pausedRun(page);
  const panel = page.getByRole('group', { name: 'Batch mode' });
  await panel.waitFor();
  // The model as people read it; its preset/model identity stays in the data attribute.
  expect(await panel.locator('[data-model="openai/gpt-4o-mini"] strong').textContent()).toBe('gpt-4o-mini on OpenAI');
  await screenshot(page, 'batch-panel');
  // On a phone this page scrolls no sideways.
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
  await panel.getByRole('button', { name: 'Submit batch and wait' }).click();
  await panel.getByText(/Finished: done/).waitFor({ timeout: 60_000 });
  expect(await panel.getByLabel('Batch results').innerText()).toMatch(/Submitted batch batch_\d+/);
  await resumeToDone(page);
  const served = mock.stats().served;
  for (let i = 1; i <= CAPITALS.length; i++) expect(served[`b${i}`]).toBe(N);
  expect(mock.batches.created.openai).toBe(1);
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('file round trip: download the request file, load a result file (with a bad line named), resume to done', async () => {
  mock.resetStats();
  const { page, context, consoleErrors } = await openPage(browser);
  await pausedRun(page);
  const panel = page.getByRole('group', { name: 'Batch mode' });
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download request file' }).click()]);
  const requests = (await readFile((await download.path())!, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { custom_id: string; body: { n?: number } });
  expect(requests.length).toBeGreaterThan(0);
  const results = requests.map((r, i) =>
    JSON.stringify({
      id: `batch_req_${i}`, custom_id: r.custom_id, error: null,
      response: { status_code: 200, body: { choices: Array.from({ length: r.body.n ?? 1 }, (_, j) => ({ index: j, message: { role: 'assistant', content: `Answer: City${j % 2}\nConfidence: 70%` }, finish_reason: 'stop' })), usage: { prompt_tokens: 1, completion_tokens: 1 } } },
    }),
  );
  await panel.getByLabel('Load result file(s)').setInputFiles({ name: 'batch_output.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(['{broken', ...results].join('\n')) });
  const log = panel.getByLabel('Batch results');
  await panel.getByText(/batch_output\.jsonl: \d+ line/).waitFor({ timeout: 60_000 });
  expect(await log.innerText()).toContain('batch_output.jsonl:1: not valid JSON');
  expect(await log.innerText()).toMatch(new RegExp(`batch_output\\.jsonl: ${requests.length + 1} line\\(s\\), \\d+ sample\\(s\\) stored`));
  await resumeToDone(page);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a batch submitted before the tab reloaded is shown on the run page and collected by Resume waiting, with no new batch', async () => {
  mock.resetStats();
  // The batch stays with the provider until the test lets it end.
  mock.batches.configure({ pollsUntilDone: 1e9 });
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await pausedRun(page);
  let panel = page.getByRole('group', { name: 'Batch mode' });
  const created = mock.batches.created.openai;
  await panel.getByRole('button', { name: 'Submit batch and wait' }).click();
  await panel.getByText(/^Batch batch_\d+: /).waitFor({ timeout: 60_000 });
  expect(mock.batches.created.openai).toBe(created + 1);
  // The tab reloaded while the batch is pending: the key typed in the wizard was not remembered.
  await page.reload();
  panel = page.getByRole('group', { name: 'Batch mode' });
  const notice = panel.getByRole('status', { name: 'Batches still with the provider' });
  await notice.waitFor({ timeout: 60_000 });
  expect(await notice.innerText()).toMatch(/A batch of \d+ requests submitted at \d\d:\d\d is still with the provider/);
  expect(await panel.getByTestId('pending-needs-key').innerText()).toContain('Enter the API key for OpenAI above');
  expect(await panel.getByRole('button', { name: 'Resume waiting' }).isDisabled()).toBe(true);
  // Forget asks first, saying the provider may still charge; dismissed, the batch stays.
  const asked = new Promise<string>((resolve) => page.once('dialog', (d) => { resolve(d.message()); void d.dismiss(); }));
  await notice.getByRole('button', { name: 'Forget it' }).click();
  expect(await asked).toMatch(/may still run it and charge for it/);
  expect(await notice.isVisible()).toBe(true);
  await page.getByLabel(/^API key for OpenAI/).fill('mock-key');
  mock.batches.configure({ pollsUntilDone: 1 });
  await panel.getByRole('button', { name: 'Resume waiting' }).click();
  await panel.getByText(/Finished: done/).waitFor({ timeout: 60_000 });
  expect(await panel.getByLabel('Batch results').innerText()).toMatch(/Collecting 1 sample batch\(es\) submitted earlier/);
  await notice.waitFor({ state: 'detached' });
  expect(mock.batches.created.openai).toBe(created + 1);
  await resumeToDone(page);
  const served = mock.stats().served;
  for (let i = 1; i <= CAPITALS.length; i++) expect(served[`b${i}`]).toBe(N);
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});
