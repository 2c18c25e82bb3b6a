/**
 * Two tabs of one browser profile upgrading the database: the second tab plays another build of
 * the app (a raw IndexedDB open of a newer or an older version). A tab of a newer version opens
 * at once, because this tab's workers close their one connection for it (blocking), and this tab
 * says to reload; a tab of an older version holding the database makes this tab's upgrade wait,
 * which this tab says, until that tab lets go (blocked), and then the page works.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { DB_NAME, DB_VERSION } from '../../src/store/schema';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The Runs page has listed what is stored: its run worker holds the connection. */
async function openRuns(page: Page) {
  await page.goto(`${inject('appUrl')}#/runs`);
  await page.getByText('No runs yet.').waitFor({ timeout: 60_000 });
}

test('a tab of a newer version upgrades at once; this tab closes its connection and says to reload', async () => {
  const { context, page, consoleErrors, offLoopback } = await openPage(browser);
  await openRuns(page);
  expect(await page.getByTestId('storage-notice').count()).toBe(0);

  const other = await context.newPage();
  // A page of the same origin without the app, so only the open below touches the database.
  await other.goto(`${inject('appUrl')}favicon.svg`);
  // Without the close the open would wait ('blocked') for as long as the first tab lived.
  const opened = await other.evaluate(
    ([name, version]) =>
      new Promise<number | string>((resolve) => {
        const request = indexedDB.open(name, version);
        request.onsuccess = () => {
          const v = request.result.version;
          request.result.close();
          resolve(v);
        };
        request.onblocked = () => resolve('blocked');
        request.onerror = () => resolve(String(request.error));
      }),
    [DB_NAME, DB_VERSION + 1] as const,
  );
  expect(opened).toBe(DB_VERSION + 1);

  const notice = page.getByTestId('storage-notice');
  await notice.waitFor({ timeout: 30_000 });
  expect(await notice.getAttribute('role')).toBe('alert');
  expect(await notice.textContent()).toContain('Reload this tab to go on');
  await screenshot(page, 'storage-newer-tab');
  // The storage this tab asks for afterwards is refused with the same reason, not a raw IndexedDB error.
  await page.goto(`${inject('appUrl')}#/`);
  await page.goto(`${inject('appUrl')}#/runs`);
  await page.getByRole('alert').filter({ hasText: 'reload this tab to go on' }).waitFor({ timeout: 30_000 });

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a tab of an older version holding the database makes this tab wait, says so, then lets it open', async () => {
  const { context, page, consoleErrors, offLoopback } = await openPage(browser);
  const older = await context.newPage();
  await older.goto(`${inject('appUrl')}favicon.svg`);
  // An older build's tab at version 1 (its stores as db.ts's version 1 made them) that does not step aside.
  await older.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open(name, 1);
        request.onupgradeneeded = () => {
          const db = request.result;
          db.createObjectStore('runs', { keyPath: 'id' }).createIndex('byCreated', 'createdAt');
          db.createObjectStore('clusterings', { keyPath: 'key' });
          db.createObjectStore('grades', { keyPath: 'key' });
          db.createObjectStore('gradeOverrides', { keyPath: ['runId', 'model', 'questionId'] }).createIndex('byRun', 'runId');
          db.createObjectStore('embeddings', { keyPath: ['model', 'text'] });
          db.createObjectStore('reports', { keyPath: 'runId' });
          db.createObjectStore('settings');
          db.createObjectStore('datasets', { keyPath: 'id' });
        };
        request.onsuccess = () => {
          (window as unknown as { olderDb: IDBDatabase }).olderDb = request.result;
          resolve();
        };
        request.onerror = () => reject(request.error);
      }),
    DB_NAME,
  );

  await page.goto(`${inject('appUrl')}#/runs`);
  const notice = page.getByTestId('storage-notice');
  await notice.waitFor({ timeout: 30_000 });
  expect(await notice.textContent()).toContain('older version of Sem-ECE');
  expect(await page.getByText('No runs yet.').count()).toBe(0);
  await screenshot(page, 'storage-older-tab');

  await older.evaluate(() => (window as unknown as { olderDb: IDBDatabase }).olderDb.close());
  await page.getByText('No runs yet.').waitFor({ timeout: 30_000 });
  await notice.waitFor({ state: 'detached', timeout: 30_000 });
  // The upgrade ran from version 1 through every step.
  const version = await older.evaluate(
    (name) => new Promise<number>((resolve) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => {
        resolve(request.result.version);
        request.result.close();
      };
    }),
    DB_NAME,
  );
  expect(version).toBe(DB_VERSION);

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
