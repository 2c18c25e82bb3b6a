import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';
import { provideChromium } from './chromium-provision';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    chromiumPath: string;
  }
}

let server: PreviewServer | undefined;

/**
 * Finds (or installs) Chromium first, so a machine without one fails before the build with a
 * message that says what to do; then builds the app once and serves `dist/` on loopback for
 * every browser test.
 */
export async function setup(project: TestProject) {
  project.provide('chromiumPath', provideChromium());
  // SEMECE_OUT_DIR lets two people run browser tests in one checkout without building over each other.
  const outDir = process.env.SEMECE_OUT_DIR;
  if (!process.env.SEMECE_SKIP_BUILD) await build({ logLevel: 'warn', ...(outDir ? { build: { outDir } } : {}) });
  server = await preview({
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
    ...(outDir ? { build: { outDir } } : {}),
    logLevel: 'warn',
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  project.provide('appUrl', `http://127.0.0.1:${address.port}/`);
}

export async function teardown() {
  await server?.close();
}
