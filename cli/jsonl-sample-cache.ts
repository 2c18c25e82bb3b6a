/**
 * The CLI's sample cache: an append-only JSONL file that a repeated `semece sample` (direct or
 * through a batch service) reads back, so samples already paid for are never requested again.
 * A torn last line left by a killed process is dropped once (cli/jsonl-records.ts).
 */
import type { SampleCache } from '../src/model/sample-cache.ts';
import type { Sample } from '../src/model/rows.ts';
import { JsonlRecords } from './jsonl-records.ts';

const isSample = (v: unknown): v is Sample => typeof v === 'object' && v !== null && typeof (v as Sample).raw === 'string';

/** A SampleCache over an append-only JSONL file: {"key": ..., "sample": {...}} per line. */
export class JsonlSampleCache implements SampleCache {
  private readonly records: JsonlRecords<Sample>;
  constructor(readonly path: string) {
    this.records = new JsonlRecords(path, 'sample', isSample);
  }

  async load(): Promise<this> {
    await this.records.load();
    return this;
  }

  /** Lines that could not be read (a write cut short by a crash): dropped, their samples re-requested. */
  get damagedLines(): number {
    return this.records.damagedLines;
  }
  get size(): number {
    return this.records.size;
  }
  async get(keys: string[]): Promise<(Sample | undefined)[]> {
    return keys.map((k) => this.records.get(k));
  }
  async put(entries: { key: string; sample: Sample }[]): Promise<void> {
    await this.records.put(entries.map((e) => ({ key: e.key, value: e.sample })));
  }
}
