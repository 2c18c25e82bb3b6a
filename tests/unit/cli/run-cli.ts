/**
 * Runs `semece …` as a child process, as a script would (`node cli/launcher.mjs`, what `npm run
 * semece` runs, without npm's wrapper), so the exit code and the streams are the real ones. The
 * launcher runs the CLI from its esbuild bundle, rebuilt whenever a source file changed
 * (tests/unit/cli/launcher.test.ts): a start costs about 0.3 s of CPU against 1.1 s with the tsx
 * loader compiling every module again, and the CLI tests start it a few hundred times.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
const entry = [join(root, 'cli/launcher.mjs')];

export interface CliResult {
  code: number;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A clean environment plus `env`: no key from the developer's shell leaks into a test. */
export function cliEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
}

export function semece(args: string[], env: NodeJS.ProcessEnv = {}, cwd = root): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...entry, ...args], { cwd, env: cliEnv(env), maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      const e = error as (Error & { code?: number | string; signal?: NodeJS.Signals | null }) | null;
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, signal: e?.signal ?? null, stdout, stderr });
    });
  });
}

/** The child itself (to signal or kill it), and its result once it ends. */
export function spawnSemece(args: string[], env: NodeJS.ProcessEnv = {}, cwd = root): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [...entry, ...args], { cwd, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr })));
  return { child, done };
}

/** Resolves once `ready()` holds, checking every few milliseconds (an event, not a time limit). */
export async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((r) => setTimeout(r, 5));
}
