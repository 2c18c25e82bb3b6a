/**
 * The CLI's sample cache: an append-only JSONL file that a repeated `semece sample` (direct or
 * through a batch service) reads back, so samples already paid for are never requested again.
 *
 * Samples are written by question, as the browser stores them (model/sample-groups.ts): one line
 * per question per write, {"key": <key base>, "samples": {<slot>: sample, …}}, so 40,000 questions
 * × 50 replies are 40,000 lines, not 2 million lines that each repeat a 70-character key. Lines of
 * the earlier one-sample shape, {"key": <sample key>, "sample": {…}}, are read as they always were;
 * a later line's sample wins over an earlier one's under the same key.
 *
 * The file is read line by line (a cache of millions of replies is never one string). A torn last
 * line left by a killed process is dropped, and the file rewritten once without it (atomically),
 * so the next append starts on a fresh line; a whole line this cache cannot use is kept as it is.
 */
import { createReadStream, existsSync } from 'node:fs';
import { appendFile, open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { SampleCache } from '../src/model/sample-cache.ts';
import type { Sample } from '../src/model/rows.ts';
import { groupBySlot, indexedSamples, slotOf } from '../src/model/sample-groups.ts';
import { writeLinesAtomic } from './command-io.ts';

type Entry = { key: string; sample: Sample };

const isSample = (v: unknown): v is Sample => typeof v === 'object' && v !== null && typeof (v as Sample).raw === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function lines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
}

async function endsWithNewline(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await file.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await file.close();
  }
}

export class JsonlSampleCache implements SampleCache {
  /** Samples by key base, then slot (model/sample-groups.ts). */
  private readonly groups = new Map<string, Map<string, Sample>>();
  private count = 0;
  /** Appends in order, one at a time: concurrent appends of long lines could interleave. */
  private tail: Promise<void> = Promise.resolve();
  /** Lines that are not JSON objects (a write cut short by a crash): dropped, their samples requested again. */
  damagedLines = 0;

  constructor(readonly path: string) {}

  async load(): Promise<this> {
    if (!existsSync(this.path)) return this;
    for await (const line of lines(this.path)) {
      if (line.trim() === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        this.damagedLines++;
        continue;
      }
      if (!isObject(record)) {
        this.damagedLines++;
        continue;
      }
      const { key, sample, samples } = record;
      if (typeof key !== 'string') continue;
      if (isSample(sample)) this.remember(slotOf(key).group, slotOf(key).slot, sample);
      else if (isObject(samples)) for (const [slot, s] of Object.entries(samples)) if (isSample(s)) this.remember(key, slot, s);
    }
    // Also a file whose last line lacks its newline: the next append would join that line.
    if (this.damagedLines > 0 || !(await endsWithNewline(this.path))) await this.rewriteWithoutDamage();
    return this;
  }

  /** The file again, without the lines that are not JSON objects (only torn lines go, never something paid for). */
  private async rewriteWithoutDamage(): Promise<void> {
    const path = this.path;
    async function* kept() {
      for await (const line of lines(path)) {
        if (line.trim() === '') continue;
        try {
          if (isObject(JSON.parse(line))) yield line;
        } catch {
          // torn: dropped
        }
      }
    }
    await writeLinesAtomic(path, kept());
  }

  private remember(group: string, slot: string, sample: Sample): void {
    let slots = this.groups.get(group);
    if (!slots) this.groups.set(group, (slots = new Map()));
    if (!slots.has(slot)) this.count++;
    slots.set(slot, sample);
  }

  private has(key: string): boolean {
    const { group, slot } = slotOf(key);
    return this.groups.get(group)?.has(slot) ?? false;
  }

  /** Samples stored (distinct keys). */
  get size(): number {
    return this.count;
  }

  async get(keys: string[]): Promise<(Sample | undefined)[]> {
    return keys.map((k) => {
      const { group, slot } = slotOf(k);
      return this.groups.get(group)?.get(slot);
    });
  }

  async getQuestions(bases: string[], n: number): Promise<(Sample | undefined)[][]> {
    return bases.map((base) => {
      const slots = this.groups.get(base);
      return slots ? Array.from({ length: n }, (_, i) => slots.get(String(i))) : indexedSamples(undefined, n);
    });
  }

  async storedIndices(bases: string[], n: number): Promise<boolean[][]> {
    return bases.map((base) => {
      const slots = this.groups.get(base);
      return Array.from({ length: n }, (_, i) => slots?.has(String(i)) ?? false);
    });
  }

  /** Appends one line per question of the batch, then keeps the samples for `get`. */
  put(entries: Entry[]): Promise<void> {
    if (entries.length === 0) return this.tail;
    const groups = groupBySlot(entries);
    let text = '';
    for (const [key, slots] of groups) text += `${JSON.stringify({ key, samples: Object.fromEntries(slots) })}\n`;
    const write = this.tail.then(() => appendFile(this.path, text, 'utf8'));
    // A failed append reaches its caller; the next one still runs.
    this.tail = write.catch(() => {});
    return write.then(() => {
      for (const [group, slots] of groups) for (const [slot, sample] of slots) this.remember(group, slot, sample);
    });
  }

  /** Stores the entries whose keys hold nothing yet (the first stored reply wins); resolves to how many. */
  async putMissing(entries: Entry[]): Promise<number> {
    const seen = new Set<string>();
    const fresh = entries.filter((e) => !this.has(e.key) && !seen.has(e.key) && (seen.add(e.key), true));
    await this.put(fresh);
    return fresh.length;
  }
}
