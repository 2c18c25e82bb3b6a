/**
 * An append-only JSONL file of keyed records, {"key": ..., "<field>": value} per line, read back
 * by `load` a line at a time: the CLI's judge caches (clusterings, grades, entailment decisions),
 * so a repeated command finds what it already paid for. The last record of a key wins.
 *
 * A process killed mid-append leaves a torn last line. `load` drops unreadable lines and rewrites
 * the file once without them (atomically), so the next append starts on a fresh line instead of
 * being glued to the torn one, and later runs find a clean file instead of warning again.
 */
import { createReadStream, existsSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { writeLinesAtomic } from './command-io.ts';
import { endsWithNewline } from './jsonl-rows.ts';
import { jsonObjectOf } from '../src/formats/jsonl-rows.ts';

export class JsonlRecords<V> {
  private readonly map = new Map<string, V>();
  /** Appends in order, one at a time: concurrent appends of long lines could interleave. */
  private tail: Promise<void> = Promise.resolve();
  /** Lines that are not JSON objects (a write cut short by a crash): dropped, their values asked for again. */
  damagedLines = 0;

  constructor(
    readonly path: string,
    private readonly field: string,
    private readonly valid: (value: unknown) => value is V,
  ) {}

  async load(): Promise<this> {
    if (!existsSync(this.path)) return this;
    // Streamed a line at a time: a cache of a paper-scale run can pass V8's longest string.
    let whole = true;
    for await (const line of this.lines()) {
      const record = jsonObjectOf(line);
      if (record === undefined) {
        this.damagedLines++;
        whole = false;
        continue;
      }
      // A whole record this cache cannot use (another cache's, pointed at the same file) is kept
      // as it is: only torn lines are dropped, never something paid for.
      const { key, [this.field]: value } = record;
      if (typeof key === 'string' && this.valid(value)) this.map.set(key, value);
    }
    // Also a file whose last line lacks its newline: the next append would join that line.
    if (!whole || !(await endsWithNewline(this.path))) {
      const lines = this.lines();
      await writeLinesAtomic(
        this.path,
        (async function* () {
          for await (const line of lines) if (jsonObjectOf(line) !== undefined) yield line;
        })(),
      );
    }
    return this;
  }

  /** The file's non-blank lines. */
  private async *lines(): AsyncGenerator<string> {
    const input = createReadStream(this.path, { encoding: 'utf8' });
    const lines = createInterface({ input, crlfDelay: Infinity });
    try {
      for await (const line of lines) if (line.trim() !== '') yield line;
    } finally {
      lines.close();
      input.destroy();
    }
  }

  get size(): number {
    return this.map.size;
  }

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  /** Appends the records (each ends its own line) and keeps them for `get`. */
  put(entries: { key: string; value: V }[]): Promise<void> {
    if (entries.length === 0) return this.tail;
    const text = entries.map((e) => JSON.stringify({ key: e.key, [this.field]: e.value })).join('\n') + '\n';
    const write = this.tail.then(() => appendFile(this.path, text, 'utf8'));
    // A failed append reaches its caller; the next one still runs.
    this.tail = write.catch(() => {});
    return write.then(() => {
      for (const e of entries) this.map.set(e.key, e.value);
    });
  }
}
