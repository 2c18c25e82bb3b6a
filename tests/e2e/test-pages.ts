/**
 * The test-only pages (tests/e2e/*-page/: the embedding, NLI and generation checks), built by the
 * browser tests' global setup into the app's folder after the app itself, in a build of their
 * own: the app's build stays exactly what `npm run build` makes (first-load.test.ts measures
 * it), and nothing here ever ships.
 */
import { build } from 'vite';

const PAGES = {
  'embedding-check': 'tests/e2e/embedding-page/index.html',
  'nli-check': 'tests/e2e/nli-page/index.html',
  'generation-check': 'tests/e2e/generation-page/index.html',
};

/** Builds the pages into `outDir`/tests/e2e/*-page/, beside the built app, whose models/ they load. */
export async function buildTestPages(outDir: string): Promise<void> {
  await build({
    // Not the app's config: its plugins build the offline viewer and score the demo, which these pages do not use.
    configFile: false,
    base: './',
    publicDir: false,
    logLevel: 'warn',
    worker: { format: 'es' },
    build: { target: 'es2022', sourcemap: false, outDir, emptyOutDir: false, rolldownOptions: { input: PAGES } },
  });
}
