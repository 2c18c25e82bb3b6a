import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';
import { provideChromium } from './chromium-provision';
import { builtAppDir } from './built-app';
import { buildTestPages } from './test-pages';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    chromiumPath: string;
  }
}

let server: PreviewServer | undefined;

/**
 * Finds (or installs) Chromium first, so a machine without one fails before the build with a
 * message that says what to do; then builds the app once, as `npm run build` does, adds the
 * test-only pages beside it (test-pages.ts), and serves `dist/` on loopback for every browser test.
 */
export async function setup(project: TestProject) {
  project.provide('chromiumPath', provideChromium());
  // SEMECE_OUT_DIR lets two people run browser tests in one checkout without building over each other.
  const outDir = process.env.SEMECE_OUT_DIR;
  if (!process.env.SEMECE_SKIP_BUILD) {
    // The app as `npm run build` makes it: Vitest sets NODE_ENV=test, under which Svelte compiles
    // its development build (slower in the page, and not what anyone is served).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ logLevel: 'warn', ...(outDir ? { build: { outDir } } : {}) });
      await buildTestPages(builtAppDir());
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  }
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
