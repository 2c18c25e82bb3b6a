/**
 * Where sampled replies are kept between runs, and the key each one is stored under.
 * The browser implements SampleCache over IndexedDB, the CLI over a JSONL file; the orchestrator
 * (sampling.ts) only sees this interface, so both resume the same way.
 */
import type { GenerationSettings } from './provider.ts';
import type { Sample } from './rows.ts';

/**
 * What a batch of stored samples cost: the requests whose replies it holds (and any requests that
 * failed since the last batch), with their tokens. Written with the samples, in the same
 * transaction, and added up under `key` (a run's model), so a run's counters can be read back
 * from what is stored and stay exact across reloads; a checkpoint taken now and then lags.
 */
export interface UsageReceipt {
  key: string;
  requests: number;
  failed: number;
  input: number;
  output: number;
}

export type UsageTotals = Omit<UsageReceipt, 'key'>;

export const NO_USAGE: UsageTotals = { requests: 0, failed: 0, input: 0, output: 0 };

export function addUsage(a: UsageTotals, b: UsageTotals): UsageTotals {
  return { requests: a.requests + b.requests, failed: a.failed + b.failed, input: a.input + b.input, output: a.output + b.output };
}

export interface SampleCache {
  /** One entry per key, in the same order; undefined where nothing is stored. */
  get(keys: string[]): Promise<(Sample | undefined)[]>;
  /** Stores a batch (and, where the cache keeps them, its receipt); a key already present is overwritten with the same sample. */
  put(entries: { key: string; sample: Sample }[], receipt?: UsageReceipt): Promise<void>;
  /** The receipts added up under `key`, when the cache keeps them (undefined: none written there yet). */
  usage?(key: string): Promise<UsageTotals | undefined>;
  /**
   * Optional fast paths over questions' keys `<base>#0 … <base>#(n-1)`: one range read per
   * question, all in one transaction, instead of n lookups each (IndexedDB). Without them,
   * readQuestions / storedIndices fall back to `get`.
   */
  getQuestions?(bases: string[], n: number): Promise<(Sample | undefined)[][]>;
  /** Which of indices 0..n-1 of each question are stored, without reading (deserializing) the samples. */
  storedIndices?(bases: string[], n: number): Promise<boolean[][]>;
  /**
   * Optional fast path of a result-file ingest: stores the entries whose keys hold nothing yet
   * (a stored sample is kept: the first stored reply wins) and resolves to how many were stored,
   * looking and writing in one go. Without it, putMissing below looks with `get`, then `put`s.
   */
  putMissing?(entries: { key: string; sample: Sample }[]): Promise<number>;
}

/** Stores the entries not stored yet, by the cache's fastest way; resolves to how many were stored. */
export async function putMissing(cache: SampleCache, entries: { key: string; sample: Sample }[]): Promise<number> {
  if (entries.length === 0) return 0;
  if (cache.putMissing) return cache.putMissing(entries);
  const had = await cache.get(entries.map((e) => e.key));
  // A key given twice in one batch is stored once (its first sample), as the fast paths do.
  const seen = new Set<string>();
  const fresh = entries.filter((e, i) => had[i] === undefined && !seen.has(e.key) && (seen.add(e.key), true));
  if (fresh.length > 0) await cache.put(fresh);
  return fresh.length;
}

/** The key of sample `index` under a question's key base (sampleKeyBase). */
export const keyAt = (base: string, index: number): string => `${base}#${index}`;

/** The index of a key under `base` (as keyAt wrote it), or -1 when it is not one of 0..n-1. */
export function indexUnder(base: string, key: string, n: number): number {
  if (key.length <= base.length + 1 || !key.startsWith(base) || key[base.length] !== '#') return -1;
  const text = key.slice(base.length + 1);
  const i = Number(text);
  return Number.isInteger(i) && i >= 0 && i < n && String(i) === text ? i : -1;
}

/** The n samples of each question (undefined where missing), by the cache's fastest read. */
export async function readQuestions(cache: SampleCache, bases: string[], n: number): Promise<(Sample | undefined)[][]> {
  if (cache.getQuestions) return cache.getQuestions(bases, n);
  const all = await cache.get(bases.flatMap((base) => Array.from({ length: n }, (_, i) => keyAt(base, i))));
  return bases.map((_, q) => all.slice(q * n, (q + 1) * n));
}

/** Which of each question's n samples are stored (without reading them where the cache can). */
export async function storedIndices(cache: SampleCache, bases: string[], n: number): Promise<boolean[][]> {
  if (cache.storedIndices) return cache.storedIndices(bases, n);
  return (await readQuestions(cache, bases, n)).map((samples) => samples.map((s) => s !== undefined));
}

/** Everything a sample depends on. The API key is deliberately absent. */
export interface SampleKeyInput {
  preset: string;
  baseUrl: string;
  model: string;
  /** The full prompt sent (template with the question filled in). */
  prompt: string;
  settings: GenerationSettings;
  questionId: string;
  question: string;
  index: number;
}

/** JSON with object keys sorted at every depth and undefined fields dropped, so equal inputs hash equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const parts = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`);
  return `{${parts.join(',')}}`;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Stable key of one sample: `s1:` + SHA-256 (hex) of the canonical JSON of everything but the index,
 * then `#index`. Hashing once per question keeps a 50-sample question at one digest instead of 50
 * (WebCrypto digests are asynchronous and cost ~0.1 ms each). The `s1` prefix versions the recipe.
 * The base URL is normalised (no trailing slash): 'http://h/v1' and 'http://h/v1/' reach the same model.
 */
export async function sampleKeyBase(input: Omit<SampleKeyInput, 'index'>): Promise<string> {
  const { preset, baseUrl, model, prompt, settings, questionId, question } = input;
  const canonical = canonicalJson({ v: 1, preset, baseUrl: baseUrl.replace(/\/+$/, ''), model, prompt, settings, questionId, question });
  return `s1:${await sha256Hex(canonical)}`;
}

export async function sampleKey(input: SampleKeyInput): Promise<string> {
  return `${await sampleKeyBase(input)}#${input.index}`;
}

/** A SampleCache in memory (tests, one-off runs, and the layer under the JSONL file cache). */
export class MemorySampleCache implements SampleCache {
  readonly map = new Map<string, Sample>();
  readonly receipts = new Map<string, UsageTotals>();
  async get(keys: string[]): Promise<(Sample | undefined)[]> {
    return keys.map((k) => this.map.get(k));
  }
  async put(entries: { key: string; sample: Sample }[], receipt?: UsageReceipt): Promise<void> {
    for (const { key, sample } of entries) this.map.set(key, sample);
    if (receipt) this.receipts.set(receipt.key, addUsage(this.receipts.get(receipt.key) ?? NO_USAGE, receipt));
  }
  async usage(key: string): Promise<UsageTotals | undefined> {
    return this.receipts.get(key);
  }
  async putMissing(entries: { key: string; sample: Sample }[]): Promise<number> {
    let stored = 0;
    for (const { key, sample } of entries) {
      if (this.map.has(key)) continue;
      this.map.set(key, sample);
      stored++;
    }
    return stored;
  }
}
