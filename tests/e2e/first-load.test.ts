/**
 * The first visit: the demo report arrives scored (demo/report.json, written when the app was
 * built), so the page fetches no demo samples, starts no recompute worker, and its JavaScript
 * stays small. Sizes only: the time to the first chart is a figure of `npm run bench`, never
 * asserted.
 *
 * Measured on the build every browser test shares, which is the production build `npm run build`
 * makes (the test-only pages are built apart, tests/e2e/test-pages.ts).
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage } from './chromium';
import { demoDocument } from './report-fixture';

/** The first page's JavaScript budget, gzip level 9, every script it fetched (issue 13, item 11). */
const FIRST_PAGE_JS_GZIP_BYTES = 100 * 1024;

let browser: Browser;
let appUrl = '';
beforeAll(async () => {
  appUrl = inject('appUrl');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('the first page draws the build-time demo report with at most 100 KB of JavaScript (gzip), fetching no demo samples and starting no worker', async () => {
  const opened = await openPage(browser);
  const scripts: Promise<{ url: string; gzip: number; text: string }>[] = [];
  const fetched: string[] = [];
  const workers: string[] = [];
  opened.page.on('worker', (w) => workers.push(w.url()));
  opened.page.on('response', (res) => {
    const url = new URL(res.url()).pathname;
    fetched.push(url);
    if (res.request().resourceType() === 'script' || url.endsWith('.js')) scripts.push(res.body().then((b) => ({ url, gzip: gzipSync(b, { level: 9 }).length, text: b.toString('utf8') })));
  });
  await opened.page.goto(appUrl);
  await opened.page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached', timeout: 60_000 });
  await opened.page.waitForLoadState('networkidle');
  const sizes = await Promise.all(scripts);
  const total = sizes.reduce((s, x) => s + x.gzip, 0);
  expect(total, sizes.map((s) => `${s.url} ${s.gzip}`).join('\n')).toBeLessThanOrEqual(FIRST_PAGE_JS_GZIP_BYTES);
  expect(fetched.filter((u) => u.endsWith('/demo/report.json'))).toHaveLength(1);
  expect(fetched.filter((u) => u.endsWith('.jsonl') || u.endsWith('/demo/manifest.json'))).toEqual([]);
  expect(workers).toEqual([]);
  // No scorer in the first page's code: the bootstrap's kernel and ECE workspace (core/, under
  // pipeline/score-stage.ts) are recognised by their error messages, which minifying keeps.
  for (const marker of ['PairedKernel: signals binned differently', 'rows exceed its capacity']) {
    expect(sizes.filter((s) => s.text.includes(marker)).map((s) => s.url)).toEqual([]);
  }
  // The document drawn is the one the build scored: smooth ECE and its bandwidth are there at once.
  const doc = demoDocument();
  await opened.page.locator('[data-other-metrics] summary').click();
  const cell = opened.page.locator(`table[data-table="other-metrics"][data-model="${doc.models[0].model}"] tr[data-signal="sem1"] td[data-metric="smoothEce"]`);
  const sm = doc.models[0].metrics.signals.sem1!;
  expect((await cell.textContent())!.trim()).toBe(`${sm.smoothEce.toFixed(3)} (bandwidth σ = ${sm.smoothEceBandwidth!.toFixed(3)})`);
  expect(opened.consoleErrors).toEqual([]);
  expect(opened.offLoopback).toEqual([]);
  await opened.context.close();
});
