/**
 * One connection per realm, and what other tabs do to it: fake-indexeddb plays the other tab (a
 * raw `indexedDB.open` of a newer or an older version, as another build of the app would), and
 * `forceCloseDatabase` plays the browser closing the connection.
 */
import 'fake-indexeddb/auto';
import { forceCloseDatabase } from 'fake-indexeddb';
import { afterAll, afterEach, expect, test } from 'vitest';
import { unwrap } from 'idb';
import { onConnectionEvent, realmStores, STORAGE_SUPERSEDED, type ConnectionEvent } from '../../../src/store/connection';
import { DB_VERSION } from '../../../src/store/schema';
import { runRecord } from './run-record-fixture';

let count = 0;
const fresh = () => `connection-${++count}-${Math.random()}`;

const events: ConnectionEvent['type'][] = [];
const stop = onConnectionEvent((e) => events.push(e.type));
afterEach(() => {
  events.length = 0;
});
afterAll(() => stop());

function openRaw(name: string, version?: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

test('every worker of a realm gets the same stores over one connection', async () => {
  const name = fresh();
  const [a, b] = await Promise.all([realmStores(name), realmStores(name)]);
  expect(a).toBe(b);
  expect(await realmStores(name)).toBe(a);
  expect(a.db.version).toBe(DB_VERSION);
});

test('blocking: a newer version elsewhere upgrades at once; this realm closes and says to reload', async () => {
  const name = fresh();
  const stores = await realmStores(name);
  await stores.runs.saveRun(runRecord('kept', '2026-01-01T00:00:00.000Z'));
  // Without the close this open would wait (blocked) for as long as the realm lived.
  const newer = await openRaw(name, DB_VERSION + 1);
  expect(newer.version).toBe(DB_VERSION + 1);
  expect(events).toEqual(['superseded']);
  await expect(realmStores(name)).rejects.toMatchObject({ kind: STORAGE_SUPERSEDED, message: expect.stringMatching(/reload this tab/) });
  // The newer tab has the data the older one stored.
  const read = await new Promise((resolve) => {
    const request = newer.transaction('runs').objectStore('runs').get('kept');
    request.onsuccess = () => resolve(request.result);
  });
  expect(read).toMatchObject({ id: 'kept' });
  newer.close();
});

test('a database deleted elsewhere is opened afresh on the next use, not refused', async () => {
  const name = fresh();
  const first = await realmStores(name);
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
  const again = await realmStores(name);
  expect(again).not.toBe(first);
  expect(await again.runs.getRun('absent')).toBeUndefined();
  expect(events).toEqual([]);
});

test('blocked: an older version held open elsewhere makes the upgrade wait, announced, until it closes', async () => {
  const name = fresh();
  // An older build's tab that does not step aside for an upgrade.
  const older = await openRaw(name, 1);
  const opening = realmStores(name);
  await expect.poll(() => events).toEqual(['blocked']);
  older.close();
  const stores = await opening;
  expect(stores.db.version).toBe(DB_VERSION);
  expect(events).toEqual(['blocked', 'opened']);
});

test('terminated: a connection the browser closed is opened again on the next use', async () => {
  const name = fresh();
  const first = await realmStores(name);
  await first.runs.saveRun(runRecord('before', '2026-01-01T00:00:00.000Z'));
  // fake-indexeddb's declaration asks for the class; it takes the connection.
  forceCloseDatabase(unwrap(first.db) as never);
  expect(events).toEqual(['terminated']);
  const second = await realmStores(name);
  expect(second).not.toBe(first);
  expect(await second.runs.getRun('before')).toMatchObject({ id: 'before' });
});
