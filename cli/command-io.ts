/** The file reading and writing that the row-transforming CLI commands (`cluster`, `grade`) share. */
import { readFile, writeFile } from 'node:fs/promises';

export type Io = { out?: (s: string) => void; err?: (s: string) => void; env?: NodeJS.ProcessEnv };

/** The command's --in file as text, or undefined once an unreadable file is reported (a usage error, exit 2). */
export async function readInputText(command: string, file: string, err: (s: string) => void): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    err(`semece ${command}: cannot read --in ${file}: ${(e as Error).message}`);
    return undefined;
  }
}

/** One JSON object per line, with a trailing newline unless there are no rows. */
export async function writeJsonl(file: string, rows: readonly unknown[]): Promise<void> {
  await writeFile(file, rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''), 'utf8');
}
