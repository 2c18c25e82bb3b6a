/**
 * For the browser benchmarks: builds the app (unless SEMECE_SKIP_BUILD is set), serves dist/ on
 * loopback with vite preview, and launches Debian Chromium with the tests' flags.
 */
import { build, preview, type PreviewServer } from 'vite';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../tests/e2e/chromium';

export interface AppUnderTest {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

// One build per `npm run bench` process, shared by the browser benches that use this module.
let built: Promise<unknown> | undefined;

export async function startApp(): Promise<AppUnderTest> {
  if (!process.env.SEMECE_SKIP_BUILD) await (built ??= build({ logLevel: 'warn' }));
  const server: PreviewServer = await preview({ preview: { host: '127.0.0.1', port: 0, strictPort: false }, logLevel: 'warn' });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  const browser = await launchChromium();
  return {
    url: `http://127.0.0.1:${address.port}/`,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
