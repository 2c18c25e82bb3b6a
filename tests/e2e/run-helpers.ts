/** Drives the New run wizard the way a person would: by labels and buttons. */
import type { Page } from 'playwright-core';
import { screenshot } from './chromium';

export interface WizardInput {
  /** A dataset file to upload; without it the demo questions are used. */
  file?: { name: string; text: string };
  demoCount?: number;
  baseUrl: string;
  model: string;
  key: string;
  n: number;
  concurrency: number;
  /** Tick "Remember this key on this device". */
  remember?: boolean;
  /** Group answers with this embedding model instead of exact match. */
  embeddingModel?: string;
  /** Prefix for screenshots of each step; none when absent. */
  shots?: string;
  /** Called on the Settings step once it is filled, before going on (e.g. to set the scoring fold-out). */
  atSettings?: (page: Page) => Promise<void>;
}

const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();

/** Fills every step and starts the run; returns the run id from the page's address. */
export async function startRunThroughWizard(page: Page, appUrl: string, input: WizardInput): Promise<string> {
  await page.goto(`${appUrl}#/new`);
  await page.getByRole('heading', { name: 'New run' }).waitFor();

  if (input.file) {
    await page.getByLabel('A file of my own').check();
    await page.getByLabel('Dataset file').setInputFiles({ name: input.file.name, mimeType: 'text/csv', buffer: Buffer.from(input.file.text) });
    await page.getByText(/questions ready/).waitFor();
  } else if (input.demoCount !== undefined) {
    await page.getByLabel('How many demo questions').fill(String(input.demoCount));
  }
  if (input.shots) await screenshot(page, `${input.shots}-1-dataset`);
  await next(page);

  await page.getByLabel('Provider').selectOption('openai');
  await page.getByLabel('Model id').fill(input.model);
  await page.getByLabel('Base URL').fill(input.baseUrl);
  await page.getByLabel(/^API key/).fill(input.key);
  if (input.remember) await page.getByLabel('Remember this key on this device').check();
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByText(/^Connected in/).waitFor({ timeout: 60_000 });
  if (input.shots) await screenshot(page, `${input.shots}-2-models`);
  await next(page);

  await page.getByLabel('Samples per question (n)').fill(String(input.n));
  await page.getByLabel('Requests at once (per model)').fill(String(input.concurrency));
  if (input.embeddingModel) {
    await page.getByLabel(/^Embeddings/).check();
    await page.getByLabel('Embedding model').fill(input.embeddingModel);
  }
  if (input.atSettings) await input.atSettings(page);
  if (input.shots) await screenshot(page, `${input.shots}-3-settings`);
  await next(page);

  await page.getByRole('table').first().waitFor();
  if (input.shots) await screenshot(page, `${input.shots}-4-review`);
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/#\/run\//);
  return decodeURIComponent(page.url().split('#/run/')[1]);
}

/** Counts stored samples by question group, read straight from the page's IndexedDB. */
export function storedSamplesByQuestion(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open('semece');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          // One record per question since database version 6 (model/sample-groups.ts): its slots and samples.
          const all = db.transaction('questionSamples', 'readonly').objectStore('questionSamples').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            const counts: Record<string, number> = {};
            for (const r of all.result as { key: string; slots: string[] }[]) counts[r.key] = r.slots.length;
            db.close();
            resolve(counts);
          };
        };
      }),
  );
}

/**
 * Stores of the app's database read in one transaction, as the page sees them: every record of
 * each store listed in `all`, and the record count of each listed in `count`.
 */
export function readAppDatabase(page: Page, { all = [], count = [] }: { all?: string[]; count?: string[] }): Promise<{ all: Record<string, unknown[]>; count: Record<string, number> }> {
  return page.evaluate(
    ({ all, count }) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('semece');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction([...all, ...count], 'readonly');
          const records = all.map((name) => [name, tx.objectStore(name).getAll()] as const);
          const counts = count.map((name) => [name, tx.objectStore(name).count()] as const);
          tx.oncomplete = () => {
            db.close();
            resolve({
              all: Object.fromEntries(records.map(([name, r]) => [name, r.result as unknown[]])),
              count: Object.fromEntries(counts.map(([name, r]) => [name, r.result])),
            });
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { all, count },
  );
}

/** One record of one store of the app's database, as the page stored it (undefined when there is none). */
export function readRecord(page: Page, store: string, key: string): Promise<unknown> {
  return page.evaluate(({ store, key }) => new Promise((resolve, reject) => {
    const open = indexedDB.open('semece');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const get = db.transaction(store, 'readonly').objectStore(store).get(key);
      get.onsuccess = () => {
        db.close();
        resolve(get.result);
      };
      get.onerror = () => reject(get.error);
    };
  }), { store, key });
}

/** Writes `record` into a store of the app's database (its key is in the record), as a state the app could have left. */
export function putRecord(page: Page, store: string, record: unknown): Promise<void> {
  return page.evaluate(({ store, record }) => new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('semece');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(store, 'readwrite');
      tx.objectStore(store).put(record);
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  }), { store, record });
}
