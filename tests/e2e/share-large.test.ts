/**
 * Large inputs open off the main thread: a share link of 54,000 question rows (some 0.8 MB, 15 MB of JSON, made
 * by the real encoder) and the same report as a file. What is asserted is structural, never a
 * duration: the page hands the payload (or the File) to the import worker, the main thread never
 * JSON.parses anything the size of the report, the status line says "Opening the report…" while
 * it works (role=status), then the report renders, and its signal comparison (the report holds
 * none stored) is computed by the recompute worker. The longest long task the page had is
 * printed as a figure, for the reader, not asserted.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { MAX_SHARE_PAYLOAD_CHARS, SHARE_ROUTE, encodePayload } from '../../src/share/codec';
import { reportToJson } from '../../src/formats/report-export';
import { largeReport } from '../unit/share/large-report';
import { expectHeadlineNumbers } from './share-report-checks';

const PER_MODEL = 27_000;
const doc = largeReport(PER_MODEL);

let browser: Browser;
const dir = mkdtempSync(path.join(tmpdir(), 'semece-large-'));
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Watch {
  /** [start, duration] of every long task, in the page's performance.now() time. */
  longTasks: [number, number][];
  /** When a status line first said "Opening the report…". */
  openingAt: number | null;
  workers: { name: string; url: string; longestString: number; blobs: number }[];
  longestMainJsonParse: number;
  statusTexts: string[];
}

/**
 * Installed before the app's first script: long tasks (buffered), every Worker the page starts
 * with the longest string and the Blobs its messages carried, the longest text JSON.parse got on
 * the main thread, and every text a role=status element showed.
 */
function watch(): void {
  const w: Watch = { longTasks: [], openingAt: null, workers: [], longestMainJsonParse: 0, statusTexts: [] };
  (window as unknown as { __watch: Watch }).__watch = w;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long-task timing in this browser: the figure is then absent.
  }
  const parse = JSON.parse;
  JSON.parse = function (text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) {
    if (typeof text === 'string') w.longestMainJsonParse = Math.max(w.longestMainJsonParse, text.length);
    return parse(text, reviver);
  } as typeof JSON.parse;
  // Strings and Blobs in a message, a few levels down (Comlink wraps arguments in RAW values).
  const scan = (v: unknown, seen: { longest: number; blobs: number }, depth: number) => {
    if (typeof v === 'string') seen.longest = Math.max(seen.longest, v.length);
    else if (v instanceof Blob) seen.blobs++;
    else if (v && typeof v === 'object' && depth < 6 && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer)) {
      for (const x of Object.values(v as object)) scan(x, seen, depth + 1);
    }
  };
  const Original = window.Worker;
  window.Worker = class extends Original {
    watchRecord: Watch['workers'][number];
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      this.watchRecord = { name: options?.name ?? '', url: String(url), longestString: 0, blobs: 0 };
      w.workers.push(this.watchRecord);
    }
    override postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions) {
      const seen = { longest: this.watchRecord.longestString, blobs: this.watchRecord.blobs };
      scan(message, seen, 0);
      this.watchRecord.longestString = seen.longest;
      this.watchRecord.blobs = seen.blobs;
      super.postMessage(message, transfer as Transferable[]);
    }
  };
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('[role="status"]')) {
      const text = el.textContent?.trim() ?? '';
      if (text && w.statusTexts.at(-1) !== text) w.statusTexts.push(text);
      if (w.openingAt === null && text.startsWith('Opening the report…')) w.openingAt = performance.now();
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

async function watched(page: Page): Promise<Watch> {
  return page.evaluate(() => (window as unknown as { __watch: Watch }).__watch);
}

/** The report is shown, its numbers are the document's, and both models' signals are compared. */
async function expectReport(page: Page) {
  await page.locator('[data-report]').waitFor({ timeout: 120_000 });
  expect(await page.locator('.report-head h1').textContent()).toBe(doc.title);
  await expectHeadlineNumbers(page, doc);
  const headlines = page.locator('[data-comparison-headline]');
  await expect.poll(() => headlines.count(), { timeout: 120_000 }).toBe(doc.models.length);
}

function expectOffMainThread(w: Watch, what: string, inputChars: number) {
  // A figure for the reader, never asserted: all long tasks, and those from the moment the page
  // began opening the report (a long link's own navigation, before any of the app runs, is the
  // browser's).
  const longest = (tasks: [number, number][]) => (tasks.length ? `${Math.round(Math.max(...tasks.map(([, d]) => d)))} ms` : 'none');
  const sinceOpening = w.longTasks.filter(([start, d]) => w.openingAt !== null && start + d >= w.openingAt);
  console.log(`${what}: longest main-thread long task ${longest(w.longTasks)} (${w.longTasks.length} long tasks), ` +
    `${longest(sinceOpening)} since the page began opening it (${sinceOpening.length}); ` +
    `longest main-thread JSON.parse input ${w.longestMainJsonParse} chars; status texts: ${JSON.stringify(w.statusTexts)}`);
  const importer = w.workers.filter((x) => x.name === 'semece-import');
  expect(importer, JSON.stringify(w.workers)).toHaveLength(1);
  // The report's JSON (many MB) never went through JSON.parse on the page's main thread.
  expect(w.longestMainJsonParse).toBeLessThan(inputChars);
  // The comparison's bootstrap ran in the recompute worker.
  expect(w.workers.some((x) => /recompute/.test(x.url))).toBe(true);
  expect(w.statusTexts.some((t) => t.startsWith('Opening the report…'))).toBe(true);
  return importer[0];
}

test('a 54,000-row share link is decoded in the import worker, with a status while it works, then shown', async () => {
  const payload = encodePayload(doc, 'rows');
  expect(payload.length).toBeLessThan(MAX_SHARE_PAYLOAD_CHARS);
  const { context, page, consoleErrors, offLoopback } = await openPage(browser);
  await page.addInitScript(watch);
  await page.goto(`${inject('appUrl')}${SHARE_ROUTE}${payload}`);
  await page.locator('[data-shared-banner]').waitFor({ timeout: 120_000 });
  await expectReport(page);
  await screenshot(page, 'share-large-opened');
  const importer = expectOffMainThread(await watched(page), `share link (${payload.length} chars, ${2 * PER_MODEL} rows)`, payload.length);
  // The worker got the whole payload.
  expect(importer.longestString).toBe(payload.length);
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('the same report as a file is read and checked in the import worker, then shown', async () => {
  const text = reportToJson(doc);
  // From a file on disk: a buffer handed to setInputFiles is decoded on the page's main thread
  // by the test driver itself, which would stand in the figure below.
  const file = path.join(dir, 'large.json');
  writeFileSync(file, text);
  const { context, page, consoleErrors } = await openPage(browser);
  await page.addInitScript(watch);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('[data-control="report-file"]').setInputFiles(file);
  await expectReport(page);
  const importer = expectOffMainThread(await watched(page), `report file (${text.length} chars, ${2 * PER_MODEL} rows)`, text.length);
  // The worker got the File itself, not its text.
  expect(importer.blobs).toBe(1);
  expect(importer.longestString).toBeLessThan(1000);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
