/**
 * The SampleCache of the browser (and of the worker): sampled replies in IndexedDB, one record per
 * question (model/sample-groups.ts: every sample of one provider, model, prompt, settings and
 * question together, under the key base its sample keys share), with the list of its slots in a
 * small record beside it. A 50-sample question is one read and one write, and which samples are
 * stored is learnt from the slot lists without deserializing any sample. Samples are independent
 * of runs, so a repeated or resumed run finds what earlier ones stored and requests nothing twice;
 * the sample keys themselves (model/sample-cache.ts) mean what they always meant.
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
import { addUsage, NO_USAGE, type SampleCache, type UsageReceipt, type UsageTotals } from '../model/sample-cache';
import type { Sample } from '../model/rows';
import { BatchWriter } from '../model/write-batcher';
import type { SemeceDatabase } from './db';
import { groupBySlot, indexedSamples, mergeSlots, sampleInSlot, slotOf } from '../model/sample-groups';
import { readBySpans } from './span-reads';
import { storageWriteError } from './write-errors';
import type { StoredQuestionSamples } from './schema';

type Entry = { key: string; sample: Sample };

/** Whether a new sample replaces one stored under its key (the sampler's put) or the first one stays (an ingest). */
type Merge = 'replace' | 'keep';

export class IdbSampleCache implements SampleCache {
  private readonly writer: BatchWriter<Entry | UsageReceipt>;

  constructor(private readonly db: SemeceDatabase) {
    this.writer = new BatchWriter(async (items) => {
      const samples = items.filter((x): x is Entry => 'sample' in x);
      // Receipts queued together are added up per key, then added to what is stored, in the samples' transaction.
      const receipts = new Map<string, UsageTotals>();
      for (const x of items) if (!('sample' in x)) receipts.set(x.key, addUsage(receipts.get(x.key) ?? NO_USAGE, x));
      await this.write(samples, 'replace', receipts);
    });
  }

  /**
   * One transaction: each question's record is read, the new samples merged in, and the record
   * and its slot list written back. Returns how many samples were new (not stored before).
   */
  private async write(entries: Entry[], merge: Merge, receipts?: Map<string, UsageTotals>): Promise<number> {
    let added = 0;
    try {
      const tx = this.db.transaction(['questionSamples', 'questionSlots', 'usage'], 'readwrite');
      const values = tx.objectStore('questionSamples');
      const slots = tx.objectStore('questionSlots');
      const now = Date.now();
      // Each request's own rejection is the transaction's, reported once by tx.done.
      for (const [group, got] of groupBySlot(entries, merge === 'keep' ? 'first' : 'last')) {
        void values
          .get(group)
          .then((had) => {
            const merged = mergeSlots(had, got, merge);
            added += merged.added;
            if (!merged.changed) return;
            void values.put({ key: group, slots: merged.slots, samples: merged.samples, storedAt: now } satisfies StoredQuestionSamples).catch(() => undefined);
            void slots.put({ key: group, slots: merged.slots }).catch(() => undefined);
          })
          .catch(() => undefined);
      }
      const usage = tx.objectStore('usage');
      for (const [key, delta] of receipts ?? []) {
        void usage.get(key).then((had) => usage.put({ key, ...addUsage(had ?? NO_USAGE, delta) })).catch(() => undefined);
      }
      await tx.done;
    } catch (e) {
      throw await storageWriteError(e, `${entries.length} sample(s)`);
    }
    return added;
  }

  async usage(key: string): Promise<UsageTotals | undefined> {
    const stored = await this.db.get('usage', key);
    if (!stored) return undefined;
    const { key: _key, ...totals } = stored;
    return totals;
  }

  async get(keys: string[]): Promise<(Sample | undefined)[]> {
    const where = keys.map(slotOf);
    const tx = this.db.transaction('questionSamples', 'readonly');
    const byGroup = await readBySpans(tx.store, where.map((w) => w.group));
    await tx.done;
    return where.map(({ group, slot }) => sampleInSlot(byGroup.get(group), slot));
  }

  /**
   * Questions' samples: one record per question, in one transaction, read a span of keys at a
   * time where the store allows (store/span-reads.ts), so bases given in key order cost a few requests.
   */
  async getQuestions(bases: string[], n: number): Promise<(Sample | undefined)[][]> {
    const tx = this.db.transaction('questionSamples', 'readonly');
    const found = await readBySpans(tx.store, bases);
    await tx.done;
    return bases.map((base) => indexedSamples(found.get(base), n));
  }

  /** Which of each question's n samples are stored, from the slot lists alone (no sample is deserialized). */
  async storedIndices(bases: string[], n: number): Promise<boolean[][]> {
    const tx = this.db.transaction('questionSlots', 'readonly');
    const records = await readBySpans(tx.store, bases);
    await tx.done;
    return bases.map((base) => {
      const record = records.get(base);
      const out: boolean[] = new Array(n).fill(false);
      for (const slot of record?.slots ?? []) {
        const i = Number(slot);
        if (Number.isInteger(i) && i >= 0 && i < n && String(i) === slot) out[i] = true;
      }
      return out;
    });
  }

  put(entries: Entry[], receipt?: UsageReceipt): Promise<void> {
    const items: (Entry | UsageReceipt)[] = entries.map(({ key, sample }) => ({ key, sample }));
    if (receipt) items.push({ ...receipt });
    return this.writer.add(items);
  }

  /**
   * Stores the samples whose keys hold nothing yet, in one transaction, and says how many that
   * was; a key already stored keeps its sample (the first stored reply wins). What a result-file
   * ingest writes: no lookup of its own, so a big batch is one read and one write per question.
   */
  putMissing(entries: Entry[]): Promise<number> {
    return entries.length === 0 ? Promise.resolve(0) : this.write(entries, 'keep');
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}
