/**
 * Opening the database, with migrations as `if (oldVersion < N)` blocks so a user's stored
 * samples, runs and reports survive every schema change. Uses the global `indexedDB` (the
 * worker, or fake-indexeddb/auto in Node tests); the page never opens it (ui/ talks to workers).
 */
import { openDB, type IDBPDatabase } from 'idb';
import { DB_NAME, DB_VERSION, type SemeceDB } from './schema';
import { moveSamplesByQuestion, SAMPLES_BEFORE_6 } from './sample-migration';

export type SemeceDatabase = IDBPDatabase<SemeceDB>;

/** The object store of the entailment clusterer's pair decisions (named once: the method's name appears in few files). */
export const ENTAILMENT_STORE = 'entailment' satisfies keyof SemeceDB;

/** A store of an earlier version that the typed schema no longer names. */
const DROPPED_IN_2 = 'datasets';

/**
 * What another connection does to this one, for the one connection of a realm (connection.ts) to
 * handle: `blocked`, this open waits for an older version's connection elsewhere to close;
 * `versionChange`, another tab wants a newer version (or deletes the database; `newVersion`
 * null) and this connection has been closed so as not to block it; `terminated`, the browser
 * closed it (storage cleared, a disk error).
 */
export interface ConnectionHandlers {
  blocked?: (currentVersion: number) => void;
  versionChange?: (newVersion: number | null) => void;
  terminated?: () => void;
}

export async function openSemeceDb(name: string = DB_NAME, handlers: ConnectionHandlers = {}): Promise<SemeceDatabase> {
  if (!globalThis.indexedDB) throw new Error('IndexedDB is not available here: samples cannot be stored');
  let opened: SemeceDatabase | undefined;
  let migrationFailed: unknown;
  try {
    opened = await openDB<SemeceDB>(name, DB_VERSION, {
      upgrade(db, oldVersion, _newVersion, transaction) {
        if (oldVersion < 1) {
          // Version 1 also created a `datasets` store (dropped in 2) and a one-record-per-sample
          // `samples` store (replaced in 6), so a new database has neither.
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
        if (oldVersion < 2) {
          // Nothing read the datasets (a run keeps its questions in its record); every other store is kept as it is.
          const untyped = db as unknown as IDBPDatabase;
          if (untyped.objectStoreNames.contains(DROPPED_IN_2)) untyped.deleteObjectStore(DROPPED_IN_2);
        }
        if (oldVersion < 3) {
          // Files read from the Hugging Face hub, so a dataset loaded once loads again offline.
          db.createObjectStore('hubFiles', { keyPath: 'url' });
        }
        if (oldVersion < 4) {
          // What each run's model's stored samples cost, written with them (exact counters after a reload).
          db.createObjectStore('usage', { keyPath: 'key' });
        }
        if (oldVersion < 5) {
          // Pair decisions of the entailment clusterer, so a repeated clustering asks the NLI model nothing twice.
          db.createObjectStore(ENTAILMENT_STORE, { keyPath: 'key' });
        }
        if (oldVersion < 6) {
          // Samples by question: one record per (provider, model, prompt, settings, question), its
          // slot list beside it; the per-sample records of 1–5 move in, under the same keys.
          db.createObjectStore('questionSamples', { keyPath: 'key' });
          db.createObjectStore('questionSlots', { keyPath: 'key' });
          const untyped = db as unknown as IDBPDatabase;
          if (untyped.objectStoreNames.contains(SAMPLES_BEFORE_6)) {
            const tx = transaction as unknown as Parameters<typeof moveSamplesByQuestion>[1];
            // A failed move aborts the upgrade: the database stays as it was, samples included.
            moveSamplesByQuestion(untyped, tx).catch((e) => {
              migrationFailed = e;
              try {
                tx.abort();
              } catch {
                // Already ended (it failed on its own): the open rejects either way.
              }
            });
          }
        }
        if (oldVersion < 7) {
          // A run's questions apart from its record, so a checkpoint rewrites progress only (run-records.ts).
          db.createObjectStore('runQuestions', { keyPath: 'runId' });
        }
        if (oldVersion < 8) {
          // A person's audit of a report in progress, saved at each edit so it survives a reload (audits.ts).
          db.createObjectStore('audits', { keyPath: 'reportId' });
        }
        if (oldVersion < 9) {
          // Batches submitted and not yet collected, so a closed tab does not forget what the provider runs and charges for (pending-batches.ts).
          const pending = db.createObjectStore('pendingBatches', { keyPath: ['runId', 'batchId'] });
          pending.createIndex('byRun', 'runId');
        }
      },
      blocked(currentVersion) {
        handlers.blocked?.(currentVersion);
      },
      blocking(_currentVersion, newVersion) {
        // Another tab (or worker) wants a newer schema: step aside rather than block its upgrade.
        opened?.close();
        handlers.versionChange?.(newVersion);
      },
      terminated() {
        handlers.terminated?.();
      },
    });
  } catch (e) {
    if (migrationFailed === undefined) throw e;
    const why = migrationFailed instanceof Error ? `${migrationFailed.name}: ${migrationFailed.message}` : String(migrationFailed);
    throw new Error(`Could not move the stored samples to the by-question layout of database version ${DB_VERSION} (${why}); the database was left as it was.`);
  }
  return opened;
}
