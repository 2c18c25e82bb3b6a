/**
 * Node-side copies of what the page shows: the demo report document built by the same code the
 * Home page runs, from the same files, so browser tests compare the DOM with the document.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildDemoReport, type DemoFiles } from '../../src/ui/report/demo-report';
import type { DemoManifest } from '../../src/demo/manifest';
import type { ReportDocument } from '../../src/model/report';
import { openPage } from './chromium';

export function demoDocument(): ReportDocument {
  const dir = path.resolve('public/demo');
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as DemoManifest;
  const texts: DemoFiles['texts'] = {};
  for (const m of manifest.models) {
    texts[m.clustered] = readFileSync(path.join(dir, m.clustered), 'utf8');
    texts[m.graded] = readFileSync(path.join(dir, m.graded), 'utf8');
  }
  const result = buildDemoReport({ manifest, texts });
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
