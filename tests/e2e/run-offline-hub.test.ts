/**
 * In-page models with no hub: the model hub address pointed at loopback (a mirror, the wizard's
 * "Model hub address"). With the hub's port closed, the review step says the hub cannot be
 * reached and offers exact match; a run started anyway stops on that one cause, said once, not
 * once per question. With a loopback hub serving the repository's tiny NLI model under a hub id,
 * "Download for offline use" fetches it into the browser's cache; the hub then closed, the review
 * says the model is available offline and a run on it finishes from the cache. Nothing leaves
 * loopback: every other address is refused by the browser context.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { readAppDatabase } from './run-helpers';
import { startMockHub, type MockHub } from '../mock/hub-server';
import { TINY_TOPICS } from '../../scripts/tiny-causal-lm-table';

const HUB_MODEL = 'semece-test/tiny-nli-hub';
const topics = TINY_TOPICS.slice(1, 4);
const csv = ['id,question,answer', ...topics.map((t, k) => `q${k + 1},${t.question},${t.gold}`)].join('\n');

/** Every file of the shipped tiny NLI model, by its path in the model's folder. */
function tinyNliFiles(): Record<string, Uint8Array> {
  const root = path.resolve('public/models/tiny-nli');
  const out: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[path.relative(root, full).split(path.sep).join('/')] = new Uint8Array(readFileSync(full));
    }
  };
  walk(root);
  return out;
}

/** A loopback port nothing listens on (opened, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();

/** Refuses every address that is not loopback, workers' requests included. */
async function loopbackOnly(context: BrowserContext) {
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort('blockedbyclient'));
}

/** Wizard up to the settings step: the tiny questions, the shipped tiny language model, entailment on the hub's NLI model, the hub at `hub`. */
async function toSettings(page: Page, hub: string) {
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();
  await page.getByLabel('A file of my own').check();
  await page.getByLabel('Dataset file').setInputFiles({ name: 'tiny.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByText(/questions ready/).waitFor();
  await next(page);
  await page.getByLabel('Provider').selectOption('in-browser');
  await page.getByLabel('Model', { exact: true }).selectOption('tiny-causal-lm');
  await next(page);
  await page.getByLabel('Samples per question (n)').fill('4');
  await page.getByLabel(/^Entailment/).check();
  await page.getByLabel('NLI model').fill(HUB_MODEL);
  const shippedOnly = page.getByLabel('Use shipped models only (never download from the Hugging Face hub)').last();
  if (await shippedOnly.isChecked()) await shippedOnly.uncheck();
  const panel = page.getByTestId('offline-models');
  await panel.getByText('Model hub address (for a mirror)').click();
  await panel.getByLabel('Model hub address').fill(hub);
  await panel.getByRole('button', { name: 'Use this address' }).click();
  await panel.getByText(`These models come from the Hugging Face hub (${hub}`).waitFor();
  return panel;
}

test('hub closed: the review says the hub cannot be reached and offers exact match; a run started anyway stops once on that cause', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await loopbackOnly(context);
  const port = await closedPort();
  const panel = await toSettings(page, `http://127.0.0.1:${port}/`);
  await panel.locator(`[data-offline-model="${HUB_MODEL}"]`).getByText('not downloaded yet').waitFor();
  await next(page);

  const check = page.locator('[data-testid="hub-check"][data-state="unreachable"]');
  await check.waitFor({ timeout: 20_000 });
  expect(await check.innerText()).toContain(`The Hugging Face hub (127.0.0.1:${port}) cannot be reached from this browser:`);
  expect(await check.innerText()).toContain('Use exact match, or a shipped model, or download the model while online');
  await screenshot(page, 'review-hub-unreachable');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'review-hub-unreachable-390-dark');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Exact match offered: taken, the warning goes (exact match needs no model).
  await check.getByRole('button', { name: 'Use exact match instead' }).click();
  await page.getByText(/clustering: exact;/).waitFor();
  expect(await page.locator('[data-testid="hub-check"]').count()).toBe(0);

  // Back to entailment, and started anyway: the run stops on the hub, said once.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByLabel(/^Entailment/).check();
  await next(page);
  await check.waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);
  await page.locator('p.status[data-status="failed"]').waitFor({ timeout: 90_000 });
  const alert = await page.getByRole('alert').filter({ hasText: 'The run stopped' }).innerText();
  expect(alert).toContain(`The run stopped: The Hugging Face hub (127.0.0.1:${port}) cannot be reached from this browser`);
  await screenshot(page, 'run-hub-unreachable');

  const { all } = await readAppDatabase(page, { all: ['runs'] });
  const run = (all.runs as { status: string; progress: { errors: { kind: string; message: string }[] } }[])[0];
  expect(run.status).toBe('failed');
  const hubErrors = run.progress.errors.filter((e) => /cannot be reached/.test(e.message));
  expect(hubErrors).toHaveLength(1);
  expect(hubErrors[0].kind).toBe('hub-unreachable');
  // No question's own "Failed to fetch": the one cause, not one per question.
  expect(run.progress.errors.filter((e) => /Failed to fetch/.test(e.message) && !/cannot be reached/.test(e.message))).toEqual([]);
  expect(offLoopback).toEqual([]);
  expect(consoleErrors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource|Failed to fetch/.test(e))).toEqual([]);
  await context.close();
});

test('Download for offline use from the loopback hub, then a run with the hub closed works from the cache', async () => {
  const hub: MockHub = await startMockHub({}, { [HUB_MODEL]: tinyNliFiles() });
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await loopbackOnly(context);
  const address = `${hub.url}/`;
  let closed = false;
  try {
    const panel = await toSettings(page, address);
    const row = panel.locator(`[data-offline-model="${HUB_MODEL}"]`);
    await row.getByText('not downloaded yet').waitFor();
    await screenshot(page, 'settings-offline-download');
    await row.getByRole('button', { name: 'Download for offline use' }).click();
    await page.locator(`[data-offline-model="${HUB_MODEL}"][data-available="true"]`).getByText('available offline').waitFor({ timeout: 60_000 });
    expect(hub.requests).toContain(`GET /${HUB_MODEL}/resolve/main/config.json`);
    expect(hub.requests).toContain(`GET /${HUB_MODEL}/resolve/main/onnx/model_quantized.onnx`);
    await screenshot(page, 'settings-offline-available');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'settings-offline-available-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    await hub.close();
    closed = true;
    const served = hub.requests.length;
    await next(page);
    await page.locator('[data-testid="hub-check"][data-state="offline"]').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/#\/run\//);
    await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 90_000 }).catch(async (e) => {
      throw new Error(`${e.message}\n${await page.locator('main').innerText()}\n${consoleErrors.join('\n')}`);
    });
    const { all } = await readAppDatabase(page, { all: ['reports'] });
    const doc = (all.reports as { document: { settings: { clustering: { method: string; detail?: string } }; models: { questions: unknown[] }[] } }[])[0].document;
    expect(doc.settings.clustering.method).toBe('entailment');
    expect(doc.settings.clustering.detail).toContain(HUB_MODEL);
    expect(doc.models[0].questions).toHaveLength(topics.length);
    expect(hub.requests.length).toBe(served);
    expect(offLoopback).toEqual([]);
    expect(consoleErrors).toEqual([]);
  } finally {
    if (!closed) await hub.close();
    await context.close();
  }
});

test("the classroom's live mode offers its hub models for offline use, before a class without network", async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await loopbackOnly(context);
  await page.goto(`${inject('appUrl')}#/classroom`);
  await page.locator('[data-mode="live"]').click();
  const panel = page.locator('[data-live-classroom]').getByTestId('offline-models');
  // The live defaults are hub models: both listed, neither in this fresh browser's cache.
  await panel.locator('[data-offline-model="HuggingFaceTB/SmolLM2-360M-Instruct"]').getByText('not downloaded yet').waitFor();
  await panel.locator('[data-offline-model="Xenova/nli-deberta-v3-xsmall"]').getByText('not downloaded yet').waitFor();
  expect(await panel.getByRole('button', { name: 'Download for offline use' }).count()).toBe(2);
  await screenshot(page, 'classroom-live-offline');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'classroom-live-offline-390-dark');
  // Shipped models need no download: the panel goes.
  await page.locator('[data-control="live-model"]').selectOption('tiny-causal-lm');
  await page.locator('[data-control="live-nli-model"]').selectOption('tiny-nli');
  await expect.poll(() => panel.count()).toBe(0);
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
