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
 * Only an index stays in memory: for each question, the slots stored and the lines (byte offset
 * and length) that hold them. A sample is read back from the file when asked for, so a cache of
 * two million replies costs a few megabytes of memory, not the replies themselves (about 2 GB
 * resident when every sample was held).
 *
 * The file is read in chunks, never as one string. A torn last line left by a killed process is
 * dropped, and the file rewritten once without it (atomically), so the next append starts on a
 * fresh line; a whole line this cache cannot use is kept as it is.
 */
import { createReadStream, existsSync } from 'node:fs';
import { appendFile, open, stat } from 'node:fs/promises';
import type { SampleCache } from '../src/model/sample-cache.ts';
import type { Sample } from '../src/model/rows.ts';
import { groupBySlot, indexedSamples, slotOf } from '../src/model/sample-groups.ts';
import { writeLinesAtomic } from './command-io.ts';
import { endsWithNewline } from './jsonl-rows.ts';
import { jsonObjectOf } from '../src/formats/jsonl-rows.ts';

type Entry = { key: string; sample: Sample };

const isSample = (v: unknown): v is Sample => typeof v === 'object' && v !== null && typeof (v as Sample).raw === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Most bytes read from the file in one call when lines lie next to each other. */
const READ_SPAN = 8 << 20;

/** A line of the file: where it starts and how many bytes it has (without its newline). */
interface Line {
  at: number;
  bytes: number;
}

/** Lines of a file with their byte offsets, decoded one at a time from chunks. */
async function* linesWithOffsets(path: string): AsyncGenerator<{ text: string; at: number; bytes: number }> {
  let carry: Buffer | undefined;
  let carryAt = 0;
  let offset = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    const bufAt = carry ? carryAt : offset;
    offset += chunk.length;
    let start = 0;
    for (let nl = buf.indexOf(0x0a, start); nl >= 0; nl = buf.indexOf(0x0a, start)) {
      yield { text: buf.toString('utf8', start, nl), at: bufAt + start, bytes: nl - start };
      start = nl + 1;
    }
    carry = start < buf.length ? buf.subarray(start) : undefined;
    carryAt = bufAt + start;
  }
  if (carry) yield { text: carry.toString('utf8'), at: carryAt, bytes: carry.length };
}

/** The samples a parsed line holds, as (group, slot, sample): both line shapes, the same rules as loading. */
function* samplesOfRecord(record: unknown): Generator<[group: string, slot: string, sample: Sample]> {
  if (!isObject(record)) return;
  const { key, sample, samples } = record;
  if (typeof key !== 'string') return;
  if (isSample(sample)) {
    const { group, slot } = slotOf(key);
    yield [group, slot, sample];
  } else if (isObject(samples)) for (const [slot, s] of Object.entries(samples)) if (isSample(s)) yield [key, slot, s];
}

export class JsonlSampleCache implements SampleCache {
  /** By key base (model/sample-groups.ts): the slots stored, and the lines holding them, oldest first. */
  private readonly index = new Map<string, { slots: Set<string>; lines: number[] }>();
  private readonly lines: Line[] = [];
  private count = 0;
  /** Bytes in the file: where the next append starts. */
  private bytes = 0;
  /** An append that failed part-way left a line without its newline: the next one starts a fresh line. */
  private torn = false;
  /** Appends in order, one at a time: concurrent appends of long lines could interleave. */
  private tail: Promise<void> = Promise.resolve();
  /** Lines that are not JSON objects (a write cut short by a crash): dropped, their samples requested again. */
  damagedLines = 0;

  constructor(readonly path: string) {}

  async load(): Promise<this> {
    if (!existsSync(this.path)) return this;
    await this.indexFile();
    // Also a file whose last line lacks its newline: the next append would join that line.
    if (this.damagedLines > 0 || !(await endsWithNewline(this.path))) {
      const damaged = this.damagedLines;
      await this.rewriteWithoutDamage();
      // The offsets moved: index the clean file again.
      await this.indexFile();
      this.damagedLines = damaged;
    }
    return this;
  }

  private async indexFile(): Promise<void> {
    this.index.clear();
    this.lines.length = 0;
    this.count = 0;
    this.damagedLines = 0;
    for await (const { text, at, bytes } of linesWithOffsets(this.path)) {
      if (text.trim() === '') continue;
      const record = jsonObjectOf(text);
      if (record === undefined) {
        this.damagedLines++;
        continue;
      }
      this.indexLine({ at, bytes }, samplesOfRecord(record));
    }
    this.bytes = (await stat(this.path)).size;
  }

  /** The file again, without the lines that are not JSON objects (only torn lines go, never something paid for). */
  private async rewriteWithoutDamage(): Promise<void> {
    const path = this.path;
    async function* kept() {
      // Blank and torn lines are dropped.
      for await (const { text } of linesWithOffsets(path)) if (jsonObjectOf(text) !== undefined) yield text;
    }
    await writeLinesAtomic(path, kept());
  }

  private indexLine(line: Line, samples: Iterable<[string, string, Sample]>): void {
    const id = this.lines.length;
    let used = false;
    for (const [group, slot] of samples) {
      let entry = this.index.get(group);
      if (!entry) this.index.set(group, (entry = { slots: new Set(), lines: [] }));
      if (!entry.slots.has(slot)) {
        entry.slots.add(slot);
        this.count++;
      }
      if (entry.lines.at(-1) !== id) entry.lines.push(id);
      used = true;
    }
    if (used) this.lines.push(line);
  }

  private has(key: string): boolean {
    const { group, slot } = slotOf(key);
    return this.index.get(group)?.slots.has(slot) ?? false;
  }

  /** Samples stored (distinct keys). */
  get size(): number {
    return this.count;
  }

  /**
   * The stored samples of these questions, by slot, read from the file: each line once, lines
   * that lie next to each other in one read; a later line's sample wins.
   */
  private async readGroups(groups: Iterable<string>): Promise<Map<string, Map<string, Sample>>> {
    const wanted = new Map<string, Map<string, Sample>>();
    const ids = new Set<number>();
    for (const g of groups) {
      const entry = this.index.get(g);
      if (!entry || wanted.has(g)) continue;
      wanted.set(g, new Map());
      for (const id of entry.lines) ids.add(id);
    }
    if (ids.size === 0) return wanted;
    const sorted = [...ids].sort((a, b) => a - b);
    const file = await open(this.path, 'r');
    try {
      for (let i = 0; i < sorted.length; ) {
        // A span of lines that follow each other in the file, read at once.
        let j = i + 1;
        const first = this.lines[sorted[i]];
        let end = first.at + first.bytes;
        while (j < sorted.length) {
          const next = this.lines[sorted[j]];
          if (next.at > end + 1 || next.at + next.bytes - first.at > READ_SPAN) break;
          end = next.at + next.bytes;
          j++;
        }
        const buf = Buffer.allocUnsafe(end - first.at);
        const { bytesRead } = await file.read(buf, 0, buf.length, first.at);
        if (bytesRead < buf.length) throw new Error(`${this.path} is shorter than when it was read (${first.at + bytesRead} of ${end} bytes): was it changed by another program?`);
        // Lines in file order, so a later line's sample overwrites an earlier one's.
        for (let k = i; k < j; k++) {
          const line = this.lines[sorted[k]];
          const record: unknown = JSON.parse(buf.toString('utf8', line.at - first.at, line.at - first.at + line.bytes));
          for (const [group, slot, sample] of samplesOfRecord(record)) wanted.get(group)?.set(slot, sample);
        }
        i = j;
      }
    } finally {
      await file.close();
    }
    return wanted;
  }

  async get(keys: string[]): Promise<(Sample | undefined)[]> {
    const where = keys.map(slotOf);
    const read = await this.readGroups(where.map((w) => w.group));
    return where.map(({ group, slot }) => read.get(group)?.get(slot));
  }

  async getQuestions(bases: string[], n: number): Promise<(Sample | undefined)[][]> {
    const read = await this.readGroups(bases);
    return bases.map((base) => {
      const slots = read.get(base);
      if (!slots) return indexedSamples(undefined, n);
      return Array.from({ length: n }, (_, i) => slots.get(String(i)));
    });
  }

  async storedIndices(bases: string[], n: number): Promise<boolean[][]> {
    return bases.map((base) => {
      const slots = this.index.get(base)?.slots;
      return Array.from({ length: n }, (_, i) => slots?.has(String(i)) ?? false);
    });
  }

  /** Appends one line per question of the batch; once written, `get` reads them from the file. */
  put(entries: Entry[]): Promise<void> {
    if (entries.length === 0) return this.tail;
    const lines = [...groupBySlot(entries)].map(([key, slots]) => ({ key, slots, text: JSON.stringify({ key, samples: Object.fromEntries(slots) }) }));
    const write = this.tail.then(async () => {
      const lead = this.torn ? '\n' : '';
      let at = this.bytes + lead.length;
      const text = lead + lines.map((l) => `${l.text}\n`).join('');
      try {
        await appendFile(this.path, text, 'utf8');
      } catch (e) {
        // Part of it may be on disk: continue after whatever is there, on a line of its own.
        this.bytes = existsSync(this.path) ? (await stat(this.path)).size : 0;
        this.torn = this.bytes > at - lead.length;
        throw e;
      }
      this.torn = false;
      for (const l of lines) {
        const bytes = Buffer.byteLength(l.text);
        this.indexLine({ at, bytes }, [...l.slots].map(([slot, sample]) => [l.key, slot, sample] as [string, string, Sample]));
        at += bytes + 1;
      }
      this.bytes = at;
    });
    // A failed append reaches its caller; the next one still runs.
    this.tail = write.catch(() => {});
    return write;
  }

  /** Stores the entries whose keys hold nothing yet (the first stored reply wins); resolves to how many. */
  async putMissing(entries: Entry[]): Promise<number> {
    const seen = new Set<string>();
    const fresh = entries.filter((e) => !this.has(e.key) && !seen.has(e.key) && (seen.add(e.key), true));
    await this.put(fresh);
    return fresh.length;
  }
}
