/**
 * The rows of a command's --in JSONL file, streamed: read in chunks and parsed a line at a time
 * (each line as every JSONL reader reads one: parseJsonlLine, src/formats/jsonl-rows.ts), so
 * `semece cluster` and `grade` over 40,000 questions × 50 replies never hold the file as one
 * string or every row at once. A bad line stops the read with a BadRow naming FILE:LINE; a file
 * that cannot be read, with a BadRow naming the file.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Obj } from '../src/formats/authors-fields.ts';
import { parseJsonlLine, withoutBom } from '../src/formats/jsonl-rows.ts';

export class BadRow extends Error {
  /** The file itself could not be read (missing, a folder, no permission). */
  readonly unreadable: boolean;

  constructor(
    /** FILE:LINE, or the file when it cannot be read. */
    readonly where: string,
    message: string,
    { unreadable = false }: { unreadable?: boolean } = {},
  ) {
    super(message);
    this.unreadable = unreadable;
  }
}

/** The line a command prints for a BadRow of its --in file. */
export const badRowLine = (command: string, e: BadRow): string =>
  e.unreadable ? `semece ${command}: cannot read --in ${e.where}: ${e.message}` : `semece ${command}: ${e.where}: ${e.message}`;

/** Each non-blank line of `file` as a JSON object, through `read` (whose FieldError names the field). */
export async function* jsonlRows<R>(file: string, read: (obj: Obj) => R): AsyncGenerator<R> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const raw of lines) {
      n++;
      const line = parseJsonlLine(n === 1 ? withoutBom(raw) : raw, read);
      if (line === null) continue;
      if (!line.ok) throw new BadRow(`${file}:${n}`, line.message);
      yield line.value;
    }
  } catch (e) {
    if (e instanceof BadRow) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    // The stream's own errors (a missing or unreadable file); anything else is a bug to surface.
    if (typeof code === 'string') throw new BadRow(file, (e as Error).message, { unreadable: true });
    throw e;
  } finally {
    lines.close();
    input.destroy();
  }
}

/** The rows in groups of `size`, the last one shorter. */
export async function* inGroups<R>(rows: AsyncIterable<R>, size: number): AsyncGenerator<R[]> {
  let group: R[] = [];
  for await (const row of rows) {
    group.push(row);
    if (group.length === size) {
      yield group;
      group = [];
    }
  }
  if (group.length > 0) yield group;
}

/** Whether the file is empty or its last byte is a line break (else the next append would join its last line). */
export async function endsWithNewline(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
