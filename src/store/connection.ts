/**
 * The one connection to the database per realm: every worker that stores (the run, batch and
 * dataset workers) asks here, so a realm holds one connection and handles what other tabs do to
 * it in one place:
 *
 * - blocked: this realm's newer schema waits for a tab of an older version to close its
 *   connection; the wait is announced, and its end;
 * - blocking: a tab of a newer version wants to upgrade: this connection closes at once so the
 *   upgrade goes ahead, and every later use fails with `storage-superseded` (this tab's code no
 *   longer matches the database: it must reload); a deleted database is simply opened afresh;
 * - terminated: the browser closed the connection (storage cleared, a disk error): the next use
 *   opens a new one.
 */
import { AppError } from '../model/app-error';
import { openSemeceDb } from './db';
import { storesOver, type Stores } from './stores';
import { DB_NAME } from './schema';

export type ConnectionEvent = { type: 'blocked' } | { type: 'opened' } | { type: 'superseded' } | { type: 'terminated' };

/** The kind of the error a use of a connection closed for a newer version gets. */
export const STORAGE_SUPERSEDED = 'storage-superseded';

const SUPERSEDED_MESSAGE = 'Another tab opened a newer version of Sem-ECE, which changed how data is stored: reload this tab to go on.';

const connections = new Map<string, Promise<Stores>>();
const superseded = new Set<string>();
const listeners = new Set<(event: ConnectionEvent) => void>();

/** Hears every connection event of this realm; returns the function that stops listening. */
export function onConnectionEvent(listener: (event: ConnectionEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: ConnectionEvent): void {
  for (const listener of listeners) listener(event);
}

function forget(name: string, connection: Promise<Stores>): void {
  if (connections.get(name) === connection) connections.delete(name);
}

function open(name: string): Promise<Stores> {
  let wasBlocked = false;
  const connection: Promise<Stores> = openSemeceDb(name, {
    blocked: () => {
      wasBlocked = true;
      emit({ type: 'blocked' });
    },
    versionChange: (newVersion) => {
      forget(name, connection);
      if (newVersion === null) return;
      superseded.add(name);
      emit({ type: 'superseded' });
    },
    terminated: () => {
      forget(name, connection);
      emit({ type: 'terminated' });
    },
  }).then(storesOver, (e) => {
    // A failed open (IndexedDB refused, a failed upgrade) is not kept: the next use tries again.
    forget(name, connection);
    throw e;
  });
  // Once a blocked open goes through, the wait is over.
  void connection.then(
    () => wasBlocked && emit({ type: 'opened' }),
    () => undefined,
  );
  return connection;
}

/** This realm's stores over its one connection, opened on first use (again after a termination). */
export function realmStores(name: string = DB_NAME): Promise<Stores> {
  if (superseded.has(name)) return Promise.reject(new AppError({ kind: STORAGE_SUPERSEDED, message: SUPERSEDED_MESSAGE, where: 'database' }));
  let connection = connections.get(name);
  if (!connection) {
    connection = open(name);
    connections.set(name, connection);
  }
  return connection;
}
