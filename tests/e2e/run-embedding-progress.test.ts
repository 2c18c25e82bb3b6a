/**
 * The clustering stage of a run with the in-browser embedding model shows the model's loading:
 * each file with bytes loaded of total, then the backend (WASM here: this Chromium runs with
 * --disable-gpu) and why not WebGPU. The tiny model is served by the app itself; its ONNX file
 * is held back by the test until the page has shown the load in progress.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Route } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { startRunThroughWizard } from './run-helpers';
import { capitalsCsv, capitalsMockQuestions, closeWithMock, launchWithMock, type Capital } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';

const CAPITALS: Capital[] = [
  ['France', 'Paris', { Paris: 0.7, 'the city of Paris': 0.3 }],
  ['Italy', 'Rome', { Milan: 0.6, Rome: 0.4 }],
  ['Canada', 'Ottawa', { Toronto: 0.5, Ottawa: 0.3, Montreal: 0.2 }],
];
const CSV = capitalsCsv(CAPITALS);
const ONNX = 'onnx/model_quantized.onnx';

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({
    apiKey: 'mock-key',
    latencyMs: 10,
    questions: capitalsMockQuestions(CAPITALS),
  }));
});
afterAll(() => closeWithMock(browser, mock));

test('the run page shows the embedding model download per file, then the backend and why', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  // Hold the model's weights until the page has shown the load in progress.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requests = 0;
  let held = 0;
  await context.route(`**/models/tiny-embedder/${ONNX}`, async (route: Route) => {
    // Transformers.js first probes every file for its size (a Range request remotely, a plain GET
    // whose headers it reads for a local folder), then loads it: hold the load, not the probe.
    requests++;
    if (requests === 2) {
      held++;
      await released;
    }
    await route.continue();
  });

  await startRunThroughWizard(page, inject('appUrl'), {
    file: { name: 'capitals.csv', text: CSV },
    baseUrl: `${mock.url}/v1`,
    model: 'gpt-4o-mini',
    key: 'mock-key',
    n: 8,
    concurrency: 4,
    embeddingModel: 'tiny-embedder',
  });

  const panel = page.getByRole('region', { name: 'Embedding model' });
  await panel.waitFor({ timeout: 60_000 });
  // Loading: the small files are through, the weights are asked for and not yet here.
  await panel.locator(`li[data-file="${ONNX}"]`).waitFor({ timeout: 60_000 });
  expect(await panel.getAttribute('data-status')).toBe('loading');
  expect(await panel.locator(`li[data-file="${ONNX}"]`).getAttribute('data-done')).toBe('false');
  expect(await panel.textContent()).toContain('loading');
  await expect.poll(async () => await panel.locator('li[data-file="config.json"]').getAttribute('data-done'), { timeout: 60_000 }).toBe('true');
  expect(held).toBeGreaterThan(0);
  await screenshot(page, 'run-embedding-model-loading');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'run-embedding-model-loading-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  release();

  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 90_000 });
  await screenshot(page, 'run-embedding-model-ready');
  expect(await panel.getAttribute('data-status')).toBe('ready');
  // Every file done, with its size: the weights' bytes are those of the file the app serves.
  const weights = await (await fetch(new URL(`models/tiny-embedder/${ONNX}`, inject('appUrl')))).arrayBuffer();
  const onnxRow = panel.locator(`li[data-file="${ONNX}"]`);
  expect(await onnxRow.getAttribute('data-done')).toBe('true');
  const bar = onnxRow.locator('progress');
  expect(Number(await bar.getAttribute('value'))).toBe(weights.byteLength);
  expect(Number(await bar.getAttribute('max'))).toBe(weights.byteLength);
  expect(await onnxRow.textContent()).toContain(`${(weights.byteLength / 1024).toFixed(1)} kB — done`);
  for (const row of await panel.locator('li').all()) expect(await row.getAttribute('data-done')).toBe('true');
  // The backend and why not WebGPU.
  const backend = panel.locator('.backend');
  expect(await backend.getAttribute('data-device')).toBe('wasm');
  expect(await backend.textContent()).toMatch(/Runs on WASM — WebGPU/);

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
