/** What every CLI command shares: its output streams (injectable for tests), and reading and writing rows. */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { PRESETS } from '../src/providers/presets.ts';
import type { ProviderDeps } from '../src/providers/create-provider.ts';
import { secretScrubber, type Scrub } from '../src/providers/secret-scrub.ts';
import path from 'node:path';

export type Io = {
  out?: (s: string) => void;
  err?: (s: string) => void;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** The HTTP client's clock, sleep, fetch and retry policy, for a test that runs a command in-process. */
  providerDeps?: ProviderDeps;
};

/** The keys a command can hold: every preset's key variable and SEMECE_API_KEY. */
function envKeys(env: NodeJS.ProcessEnv): (string | undefined)[] {
  const names = new Set(['SEMECE_API_KEY', ...Object.values(PRESETS).flatMap((p) => (p.keyEnv ? [p.keyEnv] : []))]);
  return [...names].map((name) => env[name]);
}

/** The keys a command can hold, as one scrubber. */
export function envScrubber(env: NodeJS.ProcessEnv): Scrub {
  return secretScrubber(envKeys(env));
}

/**
 * The same keys removed from a model's replies and nothing else (`only`): a reply may rightly
 * mention an "sk-…" or a URL, and is the user's data (as providers/create-provider.ts scrubs replies).
 */
export function envReplyScrubber(env: NodeJS.ProcessEnv): Scrub {
  return secretScrubber(envKeys(env), { only: true });
}

/**
 * The command's stdout and stderr line writers and environment, defaulting to the process's own.
 * Every line on stderr (errors, warnings, progress) goes through the one scrubber with the keys
 * in the environment, so no message a command prints can carry a key.
 */
export function resolveIo(io: Io): { out: (s: string) => void; err: (s: string) => void; env: NodeJS.ProcessEnv } {
  const env = io.env ?? process.env;
  const scrub = envScrubber(env);
  const err = io.err ?? ((s: string) => process.stderr.write(`${s}\n`));
  return {
    out: io.out ?? ((s: string) => process.stdout.write(`${s}\n`)),
    err: (s: string) => err(scrub(s)),
    env,
  };
}

/** The temporary file process `pid` writes `file` through (a killed process's is removed by cli/output-lock.ts). */
export const temporaryFile = (file: string, pid: number): string => `${file}.${pid}.tmp`;

/**
 * For tests of a kill during a write: with SEMECE_TEST_HOLD_WRITE set to an output path, the
 * write of that file stops with half its text in the temporary file, says so on stderr, and
 * never continues, so a test can kill the process at exactly that moment (no timing guesses).
 */
export const HOLD_WRITE_ENV = 'SEMECE_TEST_HOLD_WRITE';
export const HOLD_WRITE_MESSAGE = 'semece: holding the write of';

async function holdMidWrite(temporary: string, text: string): Promise<never> {
  await writeFile(temporary, text.slice(0, Math.floor(text.length / 2)), 'utf8');
  process.stderr.write(`${HOLD_WRITE_MESSAGE} ${temporary}\n`);
  setInterval(() => {}, 1 << 30);
  return new Promise<never>(() => {});
}

/**
 * Writes a whole file so that a reader (or a process killed mid-write) sees either the old file or
 * the complete new one, never a torn one: the text goes to a temporary file beside it, which is
 * then renamed over the target (rename is atomic within one file system).
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const temporary = temporaryFile(file, process.pid);
  try {
    if (process.env[HOLD_WRITE_ENV] && path.resolve(process.env[HOLD_WRITE_ENV]) === path.resolve(file)) await holdMidWrite(temporary, text);
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, file);
  } catch (e) {
    await rm(temporary, { force: true });
    throw e;
  }
}

/**
 * writeFileAtomic for an output too big for one string (the rows of 40,000 questions × 50
 * replies): the lines are streamed to the temporary file as they come, then renamed over the
 * target. Each line gets its own line break.
 */
export async function writeLinesAtomic(file: string, lines: Iterable<string> | AsyncIterable<string>): Promise<void> {
  const temporary = temporaryFile(file, process.pid);
  const hold = process.env[HOLD_WRITE_ENV] !== undefined && path.resolve(process.env[HOLD_WRITE_ENV]!) === path.resolve(file);
  const out = createWriteStream(temporary, { encoding: 'utf8' });
  try {
    let written = 0;
    for await (const line of lines) {
      if (hold && written > 0) {
        await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
        return holdMidWrite(temporary, await readFile(temporary, 'utf8'));
      }
      if (!out.write(`${line}\n`)) await once(out, 'drain');
      written++;
    }
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    await rename(temporary, file);
  } catch (e) {
    out.destroy();
    await rm(temporary, { force: true });
    throw e;
  }
}
