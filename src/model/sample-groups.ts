/**
 * The by-question layout of stored samples (IndexedDB since DB version 6, the CLI's cache file). A sample key is
 * `<base>#<index>`, where the base hashes the provider, model, prompt, settings and question
 * (model/sample-cache.ts), so every sample of one question under one setting shares its base.
 * The store keeps one record per base, its samples by slot (the text after the key's last '#'),
 * instead of one record per sample: a 50-sample question is one write and one read.
 *
 * The mapping is exact for any key, not only the runner's: a key without '#' gets the slot '#',
 * which no text after a last '#' can be, so key → (group, slot) → key is the identity and two
 * keys never share a slot.
 */
import type { Sample } from './rows.ts';

/** Slot of a key that has no '#'. */
const WHOLE_KEY = '#';

export interface SlotOf {
  group: string;
  slot: string;
}

export function slotOf(key: string): SlotOf {
  const hash = key.lastIndexOf('#');
  return hash < 0 ? { group: key, slot: WHOLE_KEY } : { group: key.slice(0, hash), slot: key.slice(hash + 1) };
}

export function keyOfSlot(group: string, slot: string): string {
  return slot === WHOLE_KEY ? group : `${group}#${slot}`;
}

/** Entries grouped by question, in first-seen order; a key given twice keeps its last sample (or its first). */
export function groupBySlot(entries: readonly { key: string; sample: Sample }[], twice: 'last' | 'first' = 'last'): Map<string, Map<string, Sample>> {
  const groups = new Map<string, Map<string, Sample>>();
  for (const { key, sample } of entries) {
    const { group, slot } = slotOf(key);
    let slots = groups.get(group);
    if (!slots) groups.set(group, (slots = new Map()));
    if (twice === 'last' || !slots.has(slot)) slots.set(slot, sample);
  }
  return groups;
}

/** A question's samples as stored: parallel arrays, `samples[j]` under `slots[j]`. */
export interface SlottedSamples {
  slots: string[];
  samples: Sample[];
}

/** The samples of indices 0..n-1 (undefined where missing) of a question's record. */
export function indexedSamples(record: SlottedSamples | undefined, n: number): (Sample | undefined)[] {
  const out: (Sample | undefined)[] = new Array(n).fill(undefined);
  if (!record) return out;
  record.slots.forEach((slot, j) => {
    const i = Number(slot);
    // '7' is index 7; '07' or '7.0' is a slot of its own, not one of 0..n-1.
    if (Number.isInteger(i) && i >= 0 && i < n && String(i) === slot) out[i] = record.samples[j];
  });
  return out;
}

/** The sample in one slot of a question's record, if any. */
export function sampleInSlot(record: SlottedSamples | undefined, slot: string): Sample | undefined {
  const j = record ? record.slots.indexOf(slot) : -1;
  return j >= 0 ? record!.samples[j] : undefined;
}

/**
 * A record's slots with `got` merged in: a slot already there keeps its sample on 'keep' (the
 * first stored reply wins), else ('replace') takes the new one. Returns the merged arrays and how
 * many slots are new.
 */
export function mergeSlots(had: SlottedSamples | undefined, got: ReadonlyMap<string, Sample>, taken: 'keep' | 'replace'): SlottedSamples & { added: number; changed: boolean } {
  const keep = taken === 'keep';
  const slots = had ? [...had.slots] : [];
  const samples = had ? [...had.samples] : [];
  const at = new Map(slots.map((slot, j) => [slot, j]));
  let added = 0;
  let changed = false;
  for (const [slot, sample] of got) {
    const j = at.get(slot);
    if (j === undefined) {
      at.set(slot, slots.length);
      slots.push(slot);
      samples.push(sample);
      added++;
      changed = true;
    } else if (!keep) {
      samples[j] = sample;
      changed = true;
    }
  }
  return { slots, samples, added, changed };
}
