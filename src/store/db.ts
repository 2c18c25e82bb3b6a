/**
 * Opening the database, with migrations as `if (oldVersion < N)` blocks so a user's stored
 * samples survive every schema change. Uses the global `indexedDB` (the page, the worker, or
 * fake-indexeddb/auto in Node tests).
 */
import { openDB, type IDBPDatabase } from 'idb';
import { DB_NAME, DB_VERSION, type SemeceDB } from './schema';

export type SemeceDatabase = IDBPDatabase<SemeceDB>;

export async function openSemeceDb(name: string = DB_NAME): Promise<SemeceDatabase> {
  if (!globalThis.indexedDB) throw new Error('IndexedDB is not available here: samples cannot be stored');
  let opened: SemeceDatabase | undefined;
  opened = await openDB<SemeceDB>(name, DB_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('datasets', { keyPath: 'id' });
        const samples = db.createObjectStore('samples', { keyPath: 'key' });
        samples.createIndex('byQuestion', 'question');
        const runs = db.createObjectStore('runs', { keyPath: 'id' });
        runs.createIndex('byCreated', 'createdAt');
        db.createObjectStore('clusterings', { keyPath: 'key' });
        db.createObjectStore('grades', { keyPath: 'key' });
        const overrides = db.createObjectStore('gradeOverrides', { keyPath: ['runId', 'model', 'questionId'] });
        overrides.createIndex('byRun', 'runId');
        db.createObjectStore('embeddings', { keyPath: ['model', 'text'] });
        db.createObjectStore('reports', { keyPath: 'runId' });
        db.createObjectStore('settings');
      }
    },
    blocking() {
      // Another tab (or the worker) wants a newer schema: step aside rather than block its upgrade.
      opened?.close();
    },
  });
  return opened;
}
