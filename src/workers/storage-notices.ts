/**
 * A storing worker's side of the storage notices: what happens to its realm's one database
 * connection (store/connection.ts) is posted to the page that started it, which says so
 * (a newer version in another tab: reload; an older one holding the database: close it).
 */
import { onConnectionEvent } from '../store/connection';
import { STORAGE_NOTICE, type StorageNotice } from './storage-notice-channel';

/** Called once by a worker entry that stores (run, batch, dataset). */
export function postStorageNotices(scope: { postMessage(message: unknown): void } = globalThis as unknown as { postMessage(message: unknown): void }): () => void {
  return onConnectionEvent((event) => scope.postMessage({ [STORAGE_NOTICE]: event.type satisfies StorageNotice }));
}
