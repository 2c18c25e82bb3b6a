/**
 * "Verify from this browser's cache" on a saved run's report: a real app run against the loopback
 * mock is verified against the samples this browser stored for it (match); after one question's
 * stored record is changed in IndexedDB, the check names that question and no other.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { startRunThroughWizard } from './run-helpers';
import { capitalsCsv, capitalsMockQuestions, closeWithMock, launchWithMock, type Capital } from './wizard-helpers';

const KEY = 'sk-cache-verify-key-1234567890';
const CAPITALS: Capital[] = Array.from({ length: 5 }, (_, i) => [`Land${i}`, `City${i}`, { [`City${i}`]: 0.7, [`Wrong${i}`]: 0.3 }]);

let browser: Browser;
let mock: Awaited<ReturnType<typeof launchWithMock>>['mock'];
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: KEY, seed: 5, questions: capitalsMockQuestions(CAPITALS) }));
});
afterAll(() => closeWithMock(browser, mock));

test("a saved run's report matches this browser's cache; a changed stored sample names its question", async () => {
  const { page, context, consoleErrors } = await openPage(browser);
  const id = await startRunThroughWizard(page, inject('appUrl'), { file: { name: 'capitals.csv', text: capitalsCsv(CAPITALS) }, baseUrl: `${mock.url}/v1`, model: 'cached', key: KEY, n: 4, concurrency: 2 });
  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 120_000 });
  expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('done');

  await page.goto(`${inject('appUrl')}#/report/${encodeURIComponent(id)}`);
  const panel = page.locator('[data-cache-verify]');
  await panel.locator('summary').click();
  await panel.locator('[data-action="cache-verify"]').click();
  await panel.locator('[data-cache-verify-result]').waitFor({ timeout: 60_000 });
  expect(await panel.locator('[data-cache-verify-result]').getAttribute('data-cache-verify-result')).toBe('match');
  expect(await panel.locator('[data-cache-verify-result]').textContent()).toMatch(/All 5 questions/);

  // Change the third question's first stored answer, straight in the page's IndexedDB.
  const changed = await page.evaluate(
    () =>
      new Promise<boolean>((resolve, reject) => {
        const open = indexedDB.open('semece');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('questionSamples', 'readwrite');
          const store = tx.objectStore('questionSamples');
          const all = store.getAll();
          let hit = false;
          all.onsuccess = () => {
            for (const r of all.result as { samples: { answer: string }[] }[]) {
              if (!r.samples.some((s) => s.answer === 'City2' || s.answer === 'Wrong2')) continue;
              r.samples[0] = { ...r.samples[0], answer: 'Tampered' };
              store.put(r);
              hit = true;
            }
          };
          tx.oncomplete = () => (db.close(), resolve(hit));
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  expect(changed).toBe(true);
  await panel.locator('[data-action="cache-verify"]').click();
  await panel.locator('[data-cache-verify-result="differ"]').waitFor({ timeout: 60_000 });
  expect(await panel.locator('li[data-question]').evaluateAll((els) => els.map((e) => e.getAttribute('data-question')))).toEqual(['c3']);
  await screenshot(page, 'report-cache-verify-1280');
  expect(consoleErrors).toEqual([]);
  await context.close();
}, 240_000);
