/**
 * Reading many records by key in a few big requests. Every IndexedDB request costs tens of
 * microseconds in a worker whatever its size, so 40,000 questions read with one `get` each are
 * seconds of overhead alone. The keys asked for are sorted and taken a span at a time: when the
 * store holds few other keys inside a span (what a run's questions look like in a store that
 * holds mostly them), the span is one `getAll` over its key range, the records not asked for
 * dropped; where other keys crowd the span (a store of many runs), it falls back to one `get`
 * per key. A key-only look, capped, tells the two apart without reading any value.
 */
import type { IDBPObjectStore } from 'idb';

/** Keys per span: one key range read (or its fallback) each. */
export const SPAN = 256;
/** A span is read as a range when the store holds at most this many keys inside it per key asked for. */
const CROWDING = 2;

type ReadableStore<V> = Pick<IDBPObjectStore<unknown, string[], string, 'readonly' | 'readwrite'>, 'get' | 'getAll' | 'getAllKeys'> & {
  get(key: string): Promise<V | undefined>;
  getAll(query: IDBKeyRange, count?: number): Promise<V[]>;
};

/**
 * The records of `keys` (string keys, the store's keyPath 'key'), by key; a key with no record is
 * absent from the map. All requests go out at once on the store's transaction.
 */
export async function readBySpans<V extends { key: string }>(store: ReadableStore<V>, keys: readonly string[], span = SPAN): Promise<Map<string, V>> {
  const sorted = [...new Set(keys)].sort();
  const found = new Map<string, V>();
  const spans: Promise<void>[] = [];
  for (let from = 0; from < sorted.length; from += span) {
    const part = sorted.slice(from, from + span);
    spans.push(readSpan(store, part, found));
  }
  await Promise.all(spans);
  return found;
}

async function readSpan<V extends { key: string }>(store: ReadableStore<V>, part: string[], found: Map<string, V>): Promise<void> {
  if (part.length === 1) {
    const v = await store.get(part[0]);
    if (v !== undefined) found.set(part[0], v);
    return;
  }
  const range = IDBKeyRange.bound(part[0], part[part.length - 1]);
  const limit = CROWDING * part.length;
  const inside = await store.getAllKeys(range, limit + 1);
  if (inside.length <= limit) {
    const wanted = new Set(part);
    for (const v of await store.getAll(range, limit)) if (wanted.has(v.key)) found.set(v.key, v);
    return;
  }
  const values = await Promise.all(part.map((k) => store.get(k)));
  values.forEach((v, i) => v !== undefined && found.set(part[i], v));
}
