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

/** The samples of indices 0..n-1 (undefined where missing) from a record's slots. */
export function indexedSamples(samples: Record<string, Sample> | undefined, n: number): (Sample | undefined)[] {
  const out: (Sample | undefined)[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = samples?.[String(i)];
  return out;
}
