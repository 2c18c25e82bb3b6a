/**
 * A bench's way into the app's test-only pages in Chromium, outside Vitest: the app built with
 * its test pages into a temporary folder, served on loopback, and Chromium launched from the
 * path chromium-provision.ts finds (launchChromium in tests/e2e/chromium.ts reads that path from
 * Vitest's global setup, which a bench run by itself does not have).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** Opens `pagePath` (e.g. 'tests/e2e/embedding-page/index.html'), waits for its #status to say ready, runs `use`, and cleans up. */
export async function withTestPage<T>(pagePath: string, use: (page: Page) => Promise<T>): Promise<T> {
  const { build, preview } = await import('vite');
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_ARGS } = await import('../tests/e2e/chromium');
  const { provideChromium } = await import('../tests/e2e/chromium-provision');
  const { buildTestPages } = await import('../tests/e2e/test-pages');
  const outDir = await mkdtemp(path.join(tmpdir(), 'semece-bench-'));
  try {
    await build({ logLevel: 'error', build: { outDir, emptyOutDir: true } });
    await buildTestPages(outDir);
    const server = await preview({ build: { outDir }, preview: { host: '127.0.0.1', port: 0 }, logLevel: 'error' });
    try {
      const browser = await chromium.launch({ executablePath: provideChromium(), args: CHROMIUM_ARGS, headless: true });
      try {
        const address = server.httpServer.address();
        if (!address || typeof address === 'string') throw new Error('no preview port');
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${address.port}/${pagePath}`);
        await page.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 30_000 });
        return await use(page);
      } finally {
        await browser.close();
      }
    } finally {
      await server.close();
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
