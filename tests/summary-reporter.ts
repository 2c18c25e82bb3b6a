import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** Where `npm test` (scripts/test.ts) collects each Vitest run's counts and file durations. */
export const SUMMARY_FILE_VARIABLE = 'SEMECE_TEST_SUMMARY';

/** One Vitest run's outcome, as one line of JSON in that file. */
export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Each test file and its time (ms): collecting, setting up and running it. */
  files: [file: string, ms: number][];
}

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, so that a CI that
 * does not know Vitest's own summary still reads the outcome. Under `npm test`, which runs the
 * unit and browser projects side by side, it also records them for the one line over both.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const files: RunSummary['files'] = [];
    for (const mod of testModules) {
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      const d = mod.diagnostic();
      files.push([path.relative(process.cwd(), mod.moduleId), Math.round(d.collectDuration + d.setupDuration + d.duration)]);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    const file = process.env[SUMMARY_FILE_VARIABLE];
    if (file) appendFileSync(file, `${JSON.stringify({ passed, failed, skipped, files } satisfies RunSummary)}\n`);
  }
}
