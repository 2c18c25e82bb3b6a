/**
 * `npm test`: the type checks and unit tests in one lane, the browser tests in another, both at
 * once (the browser lane runs two files at a time, vite.config.ts). Vitest runs a config's
 * projects one after the other when one of them runs its files serially, so on two cores the
 * unit tests and the type checks used to leave one core idle for minutes before the browser
 * tests even began.
 *
 * The browser lane's output is shown as it comes (it is the longer one); the other lane's is
 * held and shown as one block when it ends, so the two never interleave. Every step runs even
 * when an earlier one failed, so one run reports everything; the exit status is 1 if any failed.
 * The last lines are the slowest test files of both runs and one `tests: N passed, N failed,
 * N skipped` line over both (tests/summary-reporter.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SUMMARY_FILE_VARIABLE, type RunSummary } from '../tests/summary-reporter.ts';

const SLOWEST = 15;
const summaryDir = mkdtempSync(path.join(tmpdir(), 'semece-test-'));
const summaryFile = path.join(summaryDir, 'summary.jsonl');
// No full-page screenshots (tests/e2e/chromium.ts): ~150 of them cost over a minute of the browser
// lane, and no test reads them. `SEMECE_SCREENSHOTS=1 npm test` takes them.
const env = { SEMECE_SCREENSHOTS: '0', ...process.env, [SUMMARY_FILE_VARIABLE]: summaryFile };

/** Runs one command; its output goes to `out`. Resolves with whether it passed. */
function step(command: string, args: string[], out: (chunk: Buffer) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', out);
    child.stderr.on('data', out);
    child.on('error', (e) => {
      out(Buffer.from(`${command} could not start: ${e.message}\n`));
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

const vitest = path.resolve('node_modules/.bin/vitest');

async function checksAndUnit(): Promise<boolean> {
  const held: Buffer[] = [];
  const hold = (chunk: Buffer) => held.push(chunk);
  const checked = await step('npm', ['run', '--silent', 'check'], hold);
  if (!checked) hold(Buffer.from('\nType or layer checks failed (npm run check).\n'));
  // Both unit projects in one run (vite.config.ts: the files that share their worker's modules,
  // and those that need a fresh one each), so they share its two workers and make one summary.
  const unit = await step(vitest, ['run', '--project', 'unit', '--project', 'unit-isolated'], hold);
  process.stdout.write(`\n──── type checks and unit tests ────\n${Buffer.concat(held).toString()}\n──── end of type checks and unit tests ────\n\n`);
  return checked && unit;
}

const browser = step(vitest, ['run', '--project', 'browser'], (chunk) => process.stdout.write(chunk));
const results = await Promise.all([checksAndUnit(), browser]);

const runs: RunSummary[] = (() => {
  try {
    return readFileSync(summaryFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as RunSummary);
  } catch {
    return [];
  }
})();
rmSync(summaryDir, { recursive: true, force: true });
const files = runs.flatMap((r) => r.files).sort((a, b) => b[1] - a[1]);
process.stdout.write(`\nslowest test files:\n${files.slice(0, SLOWEST).map(([f, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${f}`).join('\n')}\n`);
// Named last, beside the counts, so a CI that keeps only the end of the log still says what failed.
const failures = runs.flatMap((r) => r.failures ?? []);
if (failures.length > 0) process.stdout.write(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
const total = (k: 'passed' | 'failed' | 'skipped') => runs.reduce((s, r) => s + r[k], 0);
// A run that ended without a summary (it crashed, or never started) counts as a failure.
const failed = total('failed') + (runs.length < 2 ? 1 : 0);
process.stdout.write(`\ntests: ${total('passed')} passed, ${failed} failed, ${total('skipped')} skipped\n`);
process.exitCode = results.every(Boolean) && failed === 0 ? 0 : 1;
