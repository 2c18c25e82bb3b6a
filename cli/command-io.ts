/** What every CLI command shares: its output streams (injectable for tests), and reading and writing rows. */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

export type Io = { out?: (s: string) => void; err?: (s: string) => void; env?: NodeJS.ProcessEnv; signal?: AbortSignal };

/** The command's stdout and stderr line writers and environment, defaulting to the process's own. */
export function resolveIo(io: Io): { out: (s: string) => void; err: (s: string) => void; env: NodeJS.ProcessEnv } {
  return {
    out: io.out ?? ((s: string) => process.stdout.write(`${s}\n`)),
    err: io.err ?? ((s: string) => process.stderr.write(`${s}\n`)),
    env: io.env ?? process.env,
  };
}

/** The command's --in file as text, or undefined once an unreadable file is reported (a usage error, exit 2). */
export async function readInputText(command: string, file: string, err: (s: string) => void): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    err(`semece ${command}: cannot read --in ${file}: ${(e as Error).message}`);
    return undefined;
  }
}

/**
 * Writes a whole file so that a reader (or a process killed mid-write) sees either the old file or
 * the complete new one, never a torn one: the text goes to a temporary file beside it, which is
 * then renamed over the target (rename is atomic within one file system).
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, file);
  } catch (e) {
    await rm(temporary, { force: true });
    throw e;
  }
}

/** One JSON object per line, with a trailing newline unless there are no rows; written atomically. */
export async function writeJsonl(file: string, rows: readonly unknown[]): Promise<void> {
  await writeFileAtomic(file, rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
}
