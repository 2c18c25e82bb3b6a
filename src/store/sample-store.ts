/**
 * The SampleCache of the browser (and of the worker): sampled replies in IndexedDB, looked up
 * in one transaction per `get`, written in batched transactions. Samples are independent of runs,
 * so a repeated or resumed run finds what earlier ones stored and requests nothing twice.
 *
 * How much a reload can lose. The sampler (pipeline/sampling.ts) keeps one `put` in flight and
 * buffers replies that arrive meanwhile; each `put` goes through a BatchWriter (model/write-batcher.ts)
 * that writes after BATCH_MAX_DELAY_MS (10 ms) or BATCH_MAX_ITEMS (500) samples, whichever is
 * first. So a reply is committed at most two transactions plus 10 ms after it arrives — a few
 * tens of milliseconds on a desktop; only replies received within that window are lost when
 * the page goes away, and, being lost, they are requested again on resume (never counted twice).
 * When the page is hidden or unloaded, it asks the worker to `flush()` at once (best effort: a
 * closing tab may end the worker before the commit).
 */
import { addUsage, indexUnder, keyAt, NO_USAGE, type SampleCache, type UsageReceipt, type UsageTotals } from '../model/sample-cache';
import type { Sample } from '../model/rows';
import { BatchWriter } from '../model/write-batcher';
import type { SemeceDatabase } from './db';
import { storageWriteError } from './write-errors';
import type { StoredSample } from './schema';

/**
 * The question group of a sample key, by the runner's convention: sample 0's key + '#q'. Sample
 * keys are `<digest of provider, model, prompt, settings and question>#<index>`, so the group
 * follows from any one of them without a lookup.
 */
export function questionGroup(sampleKey: string): string | undefined {
  const hash = sampleKey.lastIndexOf('#');
  return hash > 0 ? `${sampleKey.slice(0, hash)}#0#q` : undefined;
}

function questionRange(base: string): IDBKeyRange {
  return IDBKeyRange.bound(`${base}#`, `${base}$`, false, true);
}

export class IdbSampleCache implements SampleCache {
  private readonly questionOf = new Map<string, string>();
  private readonly writer: BatchWriter<StoredSample | UsageReceipt>;

  constructor(private readonly db: SemeceDatabase) {
    this.writer = new BatchWriter(async (items) => {
      const samples = items.filter((x): x is StoredSample => 'sample' in x);
      // Receipts queued together are added up per key, then added to what is stored, in the samples' transaction.
      const receipts = new Map<string, UsageTotals>();
      for (const x of items) if (!('sample' in x)) receipts.set(x.key, addUsage(receipts.get(x.key) ?? NO_USAGE, x));
      try {
        const tx = this.db.transaction(['samples', 'usage'], 'readwrite');
        const store = tx.objectStore('samples');
        // Each put's own rejection is the transaction's, reported once by tx.done.
        for (const item of samples) store.put(item).catch(() => undefined);
        const usage = tx.objectStore('usage');
        for (const [key, delta] of receipts) {
          void usage.get(key).then((had) => usage.put({ key, ...addUsage(had ?? NO_USAGE, delta) })).catch(() => undefined);
        }
        await tx.done;
      } catch (e) {
        throw await storageWriteError(e, `${samples.length} sample(s)`);
      }
    });
  }

  async usage(key: string): Promise<UsageTotals | undefined> {
    const stored = await this.db.get('usage', key);
    if (!stored) return undefined;
    const { key: _key, ...totals } = stored;
    return totals;
  }

  /** Tells the cache which question group these sample keys belong to (for the byQuestion index). */
  describe(sampleKeys: string[], questionKey: string): void {
    for (const k of sampleKeys) this.questionOf.set(k, questionKey);
  }

  async get(keys: string[]): Promise<(Sample | undefined)[]> {
    const tx = this.db.transaction('samples', 'readonly');
    const found = await Promise.all(keys.map((k) => tx.store.get(k)));
    await tx.done;
    // A stored sample is not written again: its question mapping (from describe) is no longer needed.
    found.forEach((s, i) => s && this.questionOf.delete(keys[i]));
    return found.map((s) => s?.sample);
  }

  /**
   * Questions' samples with one range read each, in one transaction: every key under `<base>#`
   * sorts between `<base>#` and `<base>$` ('$' follows '#'), so a 50-sample question is one
   * getAll, not 50 gets.
   */
  async getQuestions(bases: string[], n: number): Promise<(Sample | undefined)[][]> {
    const tx = this.db.transaction('samples', 'readonly');
    const found = await Promise.all(bases.map((base) => tx.store.getAll(questionRange(base))));
    await tx.done;
    return bases.map((base, q) => {
      const out: (Sample | undefined)[] = new Array(n).fill(undefined);
      for (const s of found[q]) {
        const i = indexUnder(base, s.key, n);
        if (i >= 0) out[i] = s.sample;
      }
      this.forgetStored(base, out);
      return out;
    });
  }

  /** Which of each question's n samples are stored, from the keys alone (no sample is deserialized). */
  async storedIndices(bases: string[], n: number): Promise<boolean[][]> {
    const tx = this.db.transaction('samples', 'readonly');
    const found = await Promise.all(bases.map((base) => tx.store.getAllKeys(questionRange(base))));
    await tx.done;
    return bases.map((base, q) => {
      const out: boolean[] = new Array(n).fill(false);
      for (const k of found[q]) {
        const i = indexUnder(base, k, n);
        if (i >= 0) out[i] = true;
      }
      this.forgetStored(base, out);
      return out;
    });
  }

  /** A stored sample is not written again: its question mapping (from describe) is no longer needed. */
  private forgetStored(base: string, stored: unknown[]): void {
    if (this.questionOf.size > 0) stored.forEach((s, i) => s && this.questionOf.delete(keyAt(base, i)));
  }

  put(entries: { key: string; sample: Sample }[], receipt?: UsageReceipt): Promise<void> {
    const now = Date.now();
    const items: (StoredSample | UsageReceipt)[] = entries.map(({ key, sample }) => {
      const question = this.questionOf.get(key) ?? questionGroup(key);
      // The mapping is consumed by its write: a 2-million-sample run must not keep 2 million keys alive.
      this.questionOf.delete(key);
      return { key, sample, question, storedAt: now };
    });
    if (receipt) items.push({ ...receipt });
    return this.writer.add(items);
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Number of stored samples of one question group. */
  countForQuestion(questionKey: string): Promise<number> {
    return this.db.countFromIndex('samples', 'byQuestion', questionKey);
  }
}
