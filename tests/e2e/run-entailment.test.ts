/**
 * A run through the wizard with entailment clustering on the shipped tiny NLI model: the run
 * worker starts the NLI worker, the clustering stage shows the NLI model's loading and backend,
 * the report records the method, its classes follow the model's designed decisions ("Paris" and
 * "Paris, France" together under a question about France, "Lyon" apart), and the pair decisions
 * are stored in IndexedDB's entailment store. The mock provider is on loopback; nothing else is asked.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { capitalsCsv, capitalsMockQuestions, closeWithMock, launchWithMock, type Capital } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';
import { readAppDatabase } from './run-helpers';

const CAPITALS: Capital[] = [
  ['France', 'Paris', { Paris: 0.5, 'Paris, France': 0.3, Lyon: 0.2 }],
  ['Italy', 'Rome', { Milan: 0.6, Rome: 0.4 }],
];

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: 'mock-key', latencyMs: 10, questions: capitalsMockQuestions(CAPITALS) }));
});
afterAll(() => closeWithMock(browser, mock));

const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();

type SavedQuestion = { id: string; samples?: { answer: string; cls: number }[]; classes?: { label: string }[] };
type Saved = { document: { settings: { clustering: { method: string; detail?: string } }; models: { questions: SavedQuestion[] }[] } };


test('a run clustered by entailment in the browser: NLI model loaded, classes by mutual entailment, decisions stored', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();
  await page.getByLabel('A file of my own').check();
  await page.getByLabel('Dataset file').setInputFiles({ name: 'capitals.csv', mimeType: 'text/csv', buffer: Buffer.from(capitalsCsv(CAPITALS)) });
  await page.getByText(/questions ready/).waitFor();
  await next(page);

  await page.getByLabel('Provider').selectOption('openai');
  await page.getByLabel('Model id').fill('gpt-4o-mini');
  await page.getByLabel('Base URL').fill(`${mock.url}/v1`);
  await page.getByLabel(/^API key/).fill('mock-key');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByText(/^Connected in/).waitFor({ timeout: 60_000 });
  await next(page);

  await page.getByLabel('Samples per question (n)').fill('10');
  await page.getByLabel('Requests at once (per model)').fill('4');
  await page.getByLabel(/^Entailment/).check();
  await page.getByLabel('NLI model').fill('tiny-nli');
  await page.getByLabel('Use shipped models only (never download from the Hugging Face hub)').check();
  expect(await page.getByTestId('nli-download').textContent()).toContain('"tiny-nli" is shipped with this app: nothing is downloaded.');
  await screenshot(page, 'wizard-entailment-settings');
  await next(page);

  expect(await page.getByTestId('nli-review').textContent()).toContain('tiny-nli');
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);

  const panel = page.getByRole('region', { name: 'NLI model' });
  await panel.waitFor({ timeout: 90_000 });
  await page.getByRole('link', { name: 'Open the report' }).waitFor({ timeout: 120_000 });
  expect(await panel.getAttribute('data-status')).toBe('ready');
  expect(await panel.locator('.backend').getAttribute('data-device')).toBe('wasm');

  const read = await readAppDatabase(page, { all: ['reports'], count: ['entailment'] });
  const reports = read.all.reports as Saved[];
  const decisions = read.count.entailment;
  expect(reports).toHaveLength(1);
  const doc = reports[0].document;
  expect(doc.settings.clustering.method).toBe('entailment');
  expect(doc.settings.clustering.detail).toMatch(/^tiny-nli, mutual entailment/);
  expect(decisions).toBeGreaterThan(0);
  const france = doc.models[0].questions.find((q) => q.id === 'c1')!;
  const classOf = (answer: string) => new Set(france.samples!.filter((s) => s.answer === answer).map((s) => s.cls));
  // Each answer text lands in exactly one class; Paris and "Paris, France" share it, Lyon does not.
  for (const answer of ['Paris', 'Paris, France', 'Lyon']) expect(classOf(answer).size).toBeLessThanOrEqual(1);
  const paris = [...classOf('Paris'), ...classOf('Paris, France')];
  expect(new Set(paris).size).toBe(1);
  for (const c of classOf('Lyon')) expect(paris).not.toContain(c);
  // Classes by first appearance: the first sample is in class 0.
  expect(france.samples![0].cls).toBe(0);

  await page.getByRole('link', { name: 'Open the report' }).click();
  await page.getByText(/clustering: entailment/).first().waitFor({ timeout: 30_000 });
  await screenshot(page, 'report-entailment');

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
