import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Where a worker process keeps its Chromium: on the global object, because the browser project's
 * test environment (chromium-environment.ts), which closes it, loads its own copy of this module.
 */
const SHARED = Symbol.for('semece.e2e.chromium');
type Holder = { [SHARED]?: Promise<Browser> };
const holder = globalThis as Holder;

/**
 * The Chromium that the browser tests' global setup found or installed (chromium-provision.ts),
 * one per worker process: launched by the first file that asks, and launched again if it has
 * gone (a crash). A launch costs ~1.6 s of CPU (measured, 10 launches against 10 contexts in one
 * browser), paid once per worker instead of once per file. Vitest is imported here, not at the
 * top, so that scripts outside Vitest (bench/) can still take CHROMIUM_ARGS from this module.
 */
async function workerChromium(): Promise<Browser> {
  const running = await holder[SHARED]?.catch(() => undefined);
  if (running?.isConnected()) return running;
  const { inject } = await import('vitest');
  holder[SHARED] = chromium.launch({ executablePath: inject('chromiumPath'), args: CHROMIUM_ARGS, headless: true });
  return holder[SHARED];
}

/** Closes the worker's Chromium, if it launched one: at the worker's end (chromium-environment.ts). */
export async function closeWorkerChromium(): Promise<void> {
  const running = await holder[SHARED]?.catch(() => undefined);
  delete holder[SHARED];
  await running?.close();
}

/**
 * A browser for one test file: the worker's Chromium, seen through a view that keeps the
 * contexts this file opens (newContext, newPage). Its close() closes those contexts and leaves
 * the browser for the next file, so each file still starts with no context of anyone else's
 * (a context has its own storage, cache and cookies) and ends with none of its own left open.
 */
export async function launchChromium(): Promise<Browser> {
  return browserForFile(await workerChromium());
}

function browserForFile(browser: Browser): Browser {
  const contexts = new Set<BrowserContext>();
  const keep = (context: BrowserContext) => {
    contexts.add(context);
    context.once('close', () => contexts.delete(context));
    return context;
  };
  const own: Partial<Browser> = {
    newContext: async (options) => keep(await browser.newContext(options)),
    newPage: async (options) => {
      const page = await browser.newPage(options);
      keep(page.context());
      return page;
    },
    contexts: () => [...contexts],
    close: async () => {
      await Promise.all([...contexts].map((context) => context.close()));
    },
  };
  return new Proxy(browser, {
    get(target, key) {
      if (Object.hasOwn(own, key)) return own[key as keyof Browser];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Opens a page that records console errors, page errors and requests that leave loopback,
 * so every browser test can assert that the app stayed clean and offline.
 */
export async function openPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const offLoopback: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (/^(https?|wss?):$/.test(url.protocol) && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      offLoopback.push(req.url());
    }
  });
  return { context, page, consoleErrors, offLoopback };
}

const SHOTS = path.resolve('test-results/screenshots');

/**
 * Whether screenshot() takes its picture. The pictures are for people to look at; no test reads
 * them. A full-page one costs about half a second of CPU and the browser tests take some 150, so
 * `npm test` (scripts/test.ts) sets SEMECE_SCREENSHOTS=0 unless it is set already; a run of the
 * browser tests alone, or of one file, takes them.
 */
export const screenshotsTaken = (): boolean => process.env.SEMECE_SCREENSHOTS !== '0';

export async function screenshot(page: Page, name: string) {
  if (!screenshotsTaken()) return;
  if (!existsSync(SHOTS)) mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A picture of one element (test-results/screenshots/NAME.png), taken when screenshot() takes its pictures. */
export async function elementShot(element: Locator, name: string) {
  if (!screenshotsTaken()) return;
  if (!existsSync(SHOTS)) mkdirSync(SHOTS, { recursive: true });
  await element.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/**
 * The page's width at `width` px wide, two frames after the resize (once its ResizeObservers,
 * such as the scroll regions', have reported): more than `width` means it scrolls sideways.
 */
export async function widthAt(page: Page, width: number): Promise<number> {
  const size = page.viewportSize();
  await page.setViewportSize({ width, height: size?.height ?? 900 });
  await afterLayout(page);
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Two frames later: what the page measures after layout (its ResizeObservers, ui/scroll-region.ts) has been delivered. */
export function afterLayout(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}
