import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { offlineReport } from './src/export/vite-plugin-offline-report.ts';
import { demoReport } from './src/demo/vite-plugin-demo-report.ts';
import { isolatedUnitFiles } from './tests/isolated-unit-files.ts';

const isolatedUnit = isolatedUnitFiles(import.meta.dirname);

export default defineConfig({
  // offlineReport: a second build of the self-contained HTML report viewer (dist/report-viewer.html).
  // demoReport: the demo report scored at build time (dist/demo/report.json), for the first page.
  plugins: [svelte(), offlineReport(), demoReport()],
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // Small modules the first page (the demo report) needs, which lazily loaded views share
              // too: left alone, each becomes a chunk of its own (a dozen chunks of 150–1,300 bytes),
              // and the first page pays each one's module wrapper and gzip's fresh start. One chunk,
              // with what they import (Svelte's runtime among it): 101.1 KB of gzip on the first
              // page becomes 98.3 KB (tests/e2e/first-load.test.ts holds it under 100 KB).
              name: 'report-common',
              test: /\/src\/(formats\/(report-limits|numbers|datasets\/subset-description)|core\/(regimes|percentile|binning|wilson)|model\/(rows|grade-words)|pipeline\/document-edits|share\/download|ui\/(error-text|scroll-region|Term\.svelte|Citation\.svelte|charts\/(Bars|RuleX)\.svelte))/,
            },
          ],
        },
      },
    },
  },
  test: {
    reporters: ['default', './tests/summary-reporter.ts'],
    // Time limits are safety nets for a hung test, never assertions: generous enough that a
    // machine whose cores are busy with other work passes the same suite as an idle one
    // (Vitest's defaults, 5 s per test and 1 s per expect.poll, fail heavy tests under load).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 30_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts'],
          exclude: isolatedUnit,
          // Each file in a worker thread rather than a process: ~30% less CPU over the unit files
          // (a process start and its module loading each time). Tests that need a process of
          // their own spawn one (tests/unit/cli/run-cli.ts).
          pool: 'threads',
          // Files share their worker's module graph: importing src/ afresh for each file was over
          // half the unit lane's CPU (measured on 143 files: 122 s isolated, 53 s shared). The files
          // that leave mocks, globals or fake timers behind run in 'unit-isolated' below.
          isolate: false,
          // Two at once: with one (Vitest's default on two cores) the unit lane ran alone for its
          // last minutes, one core idle, after the browser lane had finished.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          // The unit files that replace modules or globals, or fake the clock (tests/isolated-unit-files.ts
          // reads which from the files): each in a fresh module graph, as all unit files once were.
          name: 'unit-isolated',
          environment: 'node',
          include: isolatedUnit,
          pool: 'threads',
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          // Node's environment, which also closes the worker's shared Chromium when the worker
          // stops (tests/e2e/chromium.ts keeps one Chromium per worker process for its files).
          environment: './tests/e2e/chromium-environment.ts',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          // Two worker processes, each running its share of the files one after the other: one
          // per core. A browser file's CPU time (Chromium's processes and this worker's, measured
          // per file) is about its wall time, so more at once only share the cores: `npm test` on
          // a fresh clone took 657 s with two and 633 and 665 s with three. Each file's state is in
          // browser contexts and mock servers on ports of their own, opened and closed by the file.
          maxWorkers: 2,
          // Files share their worker process: no browser test mocks modules or sets globals, and
          // a fresh process per file cost ~1.7 s of CPU each (starting it and importing
          // playwright-core and the src/ modules again). It also lets them share the worker's
          // Chromium (~1.6 s of CPU a launch).
          isolate: false,
          testTimeout: 240_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
