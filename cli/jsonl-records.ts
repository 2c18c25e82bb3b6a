/**
 * An append-only JSONL file of keyed records, {"key": ..., "<field>": value} per line, read back
 * whole by `load`: the CLI's caches (samples, judge clusterings, judge grades), so a repeated
 * command finds what it already paid for. The last record of a key wins.
 *
 * A process killed mid-append leaves a torn last line. `load` drops unreadable lines and rewrites
 * the file once without them (atomically), so the next append starts on a fresh line instead of
 * being glued to the torn one, and later runs find a clean file instead of warning again.
 */
import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { writeFileAtomic } from './command-io.ts';

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
    const text = await readFile(this.path, 'utf8');
    const kept: string[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        this.damagedLines++;
        continue;
      }
      if (typeof record !== 'object' || record === null || Array.isArray(record)) {
        this.damagedLines++;
        continue;
      }
      // A whole record this cache cannot use (another cache's, pointed at the same file) is kept
      // as it is: only torn lines are dropped, never something paid for.
      kept.push(line);
      const { key, [this.field]: value } = record as Record<string, unknown>;
      if (typeof key === 'string' && this.valid(value)) this.map.set(key, value);
    }
    // Also a file whose last line lacks its newline: the next append would join that line.
    if (this.damagedLines > 0 || (text.length > 0 && !text.endsWith('\n'))) {
      await writeFileAtomic(this.path, kept.length ? kept.join('\n') + '\n' : '');
    }
    return this;
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
