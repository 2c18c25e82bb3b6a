/**
 * The CLI's sample cache: an append-only JSONL file that a repeated `semece sample` (direct or
 * through a batch service) reads back, so samples already paid for are never requested again.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { writeFileAtomic } from './command-io.ts';
import type { SampleCache } from '../src/model/sample-cache.ts';
import type { Sample } from '../src/model/rows.ts';

/**
 * A SampleCache over an append-only JSONL file: {"key": ..., "sample": {...}} per line.
 *
 * A process killed mid-append leaves a torn last line. `load` drops unreadable lines and rewrites
 * the file once without them (atomically), so the next append starts on a fresh line instead of
 * being glued to the torn one, and later runs find a clean file instead of warning again.
 */
export class JsonlSampleCache implements SampleCache {
  private readonly map = new Map<string, Sample>();
  /** Lines that could not be read (a write cut short by a crash): dropped, their samples re-requested. */
  damagedLines = 0;
  constructor(readonly path: string) {}

  async load(): Promise<this> {
    if (!existsSync(this.path)) return this;
    const text = await readFile(this.path, 'utf8');
    const kept: string[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const { key, sample } = JSON.parse(line) as { key: unknown; sample: Sample };
        if (typeof key === 'string' && sample && typeof sample.raw === 'string') {
          this.map.set(key, sample);
          kept.push(line);
        } else this.damagedLines++;
      } catch {
        this.damagedLines++;
      }
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
  async get(keys: string[]): Promise<(Sample | undefined)[]> {
    return keys.map((k) => this.map.get(k));
  }
  async put(entries: { key: string; sample: Sample }[]): Promise<void> {
    // Each entry ends its line; `load` has removed any torn line a killed process left.
    await appendFile(this.path, entries.map((e) => JSON.stringify(e)).join('\n') + '\n', 'utf8');
    for (const e of entries) this.map.set(e.key, e.sample);
  }
}
