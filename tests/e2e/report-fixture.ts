/**
 * Node-side copies of what the page shows: the demo report document built by the same code the
 * build runs for the Home page (src/demo/vite-plugin-demo-report.ts), from the same files, so
 * browser tests compare the DOM with the document.
 */
import type { Browser, Page } from 'playwright-core';
import { buildDemoReport } from '../../src/demo/demo-report';
import { readDemoFiles } from '../../src/demo/vite-plugin-demo-report';
import type { ReportDocument } from '../../src/model/report';
import { openPage } from './chromium';

export function demoDocument(): ReportDocument {
  const result = buildDemoReport(readDemoFiles('public'));
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Opens the home page and waits until the demo report's first chart is drawn. */
export async function openHome(browser: Browser, url: string, colorScheme: 'light' | 'dark' = 'light') {
  const opened = await openPage(browser);
  await opened.page.emulateMedia({ colorScheme });
  await opened.page.goto(url);
  await opened.page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached', timeout: 60_000 });
  return opened;
}

export async function dataCounts(page: Page, selector: string): Promise<number[]> {
  return page.locator(selector).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
}
