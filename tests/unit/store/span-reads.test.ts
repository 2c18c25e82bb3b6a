import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { openDB } from 'idb';
import { readBySpans } from '../../../src/store/span-reads';

async function storeWith(keys: string[]) {
  const db = await openDB(`spans-${Math.random()}`, 1, { upgrade: (d) => void d.createObjectStore('s', { keyPath: 'key' }) });
  const tx = db.transaction('s', 'readwrite');
  for (const key of keys) void tx.store.put({ key, value: `v${key}` });
  await tx.done;
  return db;
}

/** The store's reads, counted by method. */
function counted(store: { get: unknown; getAll: unknown; getAllKeys: unknown }) {
  const calls = { get: 0, getAll: 0, getAllKeys: 0 };
  const wrap = <K extends keyof typeof calls>(m: K) => (...args: unknown[]) => (calls[m]++, (store[m] as (...a: unknown[]) => unknown).apply(store, args));
  return { calls, store: { get: wrap('get'), getAll: wrap('getAll'), getAllKeys: wrap('getAllKeys') } as never };
}

const keys = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);

test('a store that holds mostly the keys asked for is read a span at a time, each record where a get would find it', async () => {
  const all = keys(1000);
  const db = await storeWith(all);
  const tx = db.transaction('s');
  const { calls, store } = counted(tx.store);
  // Asked in any order, with a key twice and one that is not stored.
  const asked = [...all.slice(0, 600)].reverse().concat(['k00001', 'missing']);
  const found = await readBySpans<{ key: string; value: string }>(store, asked, 100);
  expect(found.size).toBe(600);
  expect(found.get('k00042')).toEqual({ key: 'k00042', value: 'vk00042' });
  expect(found.has('missing')).toBe(false);
  // 601 distinct keys: 6 spans of 100, each a capped key look and one range read, and 'missing' alone (one get).
  expect(calls).toEqual({ get: 1, getAll: 6, getAllKeys: 6 });
});

test('where other keys crowd a span, it falls back to one get per key and finds the same records', async () => {
  const all = keys(2000);
  const db = await storeWith(all);
  const tx = db.transaction('s');
  const { calls, store } = counted(tx.store);
  // Every tenth key: each span of 50 holds about 500 stored keys.
  const asked = all.filter((_, i) => i % 10 === 0);
  const found = await readBySpans<{ key: string; value: string }>(store, asked, 50);
  expect([...found.keys()].sort()).toEqual(asked);
  expect(calls).toEqual({ get: 200, getAll: 0, getAllKeys: 4 });
});
