/**
 * For the browser benchmarks: builds the app (unless SEMECE_SKIP_BUILD is set), serves dist/ (or
 * SEMECE_OUT_DIR) on loopback with vite preview, and launches Debian Chromium with the tests' flags.
 */
import { build, preview, type PreviewServer } from 'vite';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/e2e/chromium';
import { provideChromium } from '../tests/e2e/chromium-provision';

export interface AppUnderTest {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

// One build per `npm run bench` process, shared by the browser benches that use this module.
let built: Promise<unknown> | undefined;

export async function startApp(): Promise<AppUnderTest> {
  // SEMECE_OUT_DIR: build and serve another folder than dist/, as the browser tests allow.
  const outDir = process.env.SEMECE_OUT_DIR;
  const out = outDir ? { build: { outDir } } : {};
  if (!process.env.SEMECE_SKIP_BUILD) await (built ??= build({ logLevel: 'warn', ...out }));
  const server: PreviewServer = await preview({ preview: { host: '127.0.0.1', port: 0, strictPort: false }, ...out, logLevel: 'warn' });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  // launchChromium reads the path from Vitest's global setup; outside Vitest find it the same way.
  const browser = await chromium.launch({ executablePath: provideChromium(), args: CHROMIUM_ARGS, headless: true });
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
