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
  /** Each failure: the file, the test's full name and the first line of its first error. */
  failures?: string[];
}

/** The first line of an error, cut to one screen line: enough to find it in the full log. */
function firstLine(message: string | undefined): string {
  const line = (message ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
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
    const failures: string[] = unhandledErrors.map((e) => `unhandled error: ${firstLine(e instanceof Error ? e.message : String(e))}`);
    for (const mod of testModules) {
      const relative = path.relative(process.cwd(), mod.moduleId);
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) {
        failed++;
        failures.push(`${relative}: ${firstLine(mod.errors()[0]?.message)}`);
      }
      for (const test of mod.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') {
          failed++;
          failures.push(`${relative} > ${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`);
        } else skipped++;
      }
      const d = mod.diagnostic();
      files.push([relative, Math.round(d.collectDuration + d.setupDuration + d.duration)]);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    const file = process.env[SUMMARY_FILE_VARIABLE];
    if (file) appendFileSync(file, `${JSON.stringify({ passed, failed, skipped, files, failures } satisfies RunSummary)}\n`);
  }
}
