/**
 * The version-6 upgrade of stored samples: every record of the one-record-per-sample `samples`
 * store (versions 1–5) moves into its question's record (`questionSamples`, with its slot list in
 * `questionSlots`), under the same key base and slot, so every sample key finds the same sample
 * afterwards. Runs inside the upgrade's versionchange transaction: if anything fails the caller
 * aborts it, and the database stays at its old version with its samples where they were.
 */
import type { IDBPDatabase, IDBPTransaction } from 'idb';
import type { Sample } from '../model/rows';
import { groupBySlot, mergeSlots, slotOf } from '../model/sample-groups';
import type { StoredQuestionSamples, StoredSample } from './schema';

/** The store versions 1–5 kept samples in. */
export const SAMPLES_BEFORE_6 = 'samples';

/** Old records read at once: big reads, bounded memory however many samples a user kept. */
const READ_CHUNK = 5000;

export interface MigratedSamples {
  samples: number;
  questions: number;
  /** Records that held no sample (not written by this app): left behind with the dropped store. */
  skipped: number;
}

const isSample = (v: unknown): v is Sample => typeof v === 'object' && v !== null && typeof (v as Sample).raw === 'string';

export async function moveSamplesByQuestion(db: IDBPDatabase, tx: IDBPTransaction<unknown, string[], 'versionchange'>): Promise<MigratedSamples> {
  const done: MigratedSamples = { samples: 0, questions: 0, skipped: 0 };
  const old = tx.objectStore(SAMPLES_BEFORE_6);
  const values = tx.objectStore('questionSamples');
  const slots = tx.objectStore('questionSlots');
  // A question's keys sort together (`<base>#…`) except for rare keys with a '#' of their own,
  // and a chunk can end inside a question: a question met again is merged with what was written.
  const written = new Set<string>();
  let after: IDBValidKey | undefined;
  for (;;) {
    const rows = (await old.getAll(after === undefined ? null : IDBKeyRange.lowerBound(after, true), READ_CHUNK)) as StoredSample[];
    if (rows.length === 0) break;
    after = rows[rows.length - 1].key;
    const usable = rows.filter((r) => typeof r?.key === 'string' && isSample(r.sample));
    done.skipped += rows.length - usable.length;
    const newest = new Map<string, number>();
    for (const r of usable) {
      const { group } = slotOf(r.key);
      newest.set(group, Math.max(newest.get(group) ?? 0, Number(r.storedAt) || 0));
    }
    const groups = groupBySlot(usable);
    await Promise.all(
      [...groups].map(async ([group, got]) => {
        const had = written.has(group) ? ((await values.get(group)) as StoredQuestionSamples | undefined) : undefined;
        const merged = mergeSlots(had, got, 'replace');
        const storedAt = Math.max(had?.storedAt ?? 0, newest.get(group) ?? 0);
        await Promise.all([
          values.put({ key: group, slots: merged.slots, samples: merged.samples, storedAt } satisfies StoredQuestionSamples),
          slots.put({ key: group, slots: merged.slots }),
        ]);
        if (!had) done.questions++;
        written.add(group);
      }),
    );
    done.samples += usable.length;
  }
  db.deleteObjectStore(SAMPLES_BEFORE_6);
  return done;
}
