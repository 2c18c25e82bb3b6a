/**
 * The storage notices' page side, kept apart from Comlink so the page's shell can listen without
 * loading the worker protocol: connectApi (worker-connection.ts) hands every notice a worker
 * posts to heardNotice; the shell shows the latest (ui/StorageNotice.svelte).
 */
/**
 * Posted by a worker when its realm's database connection changes state (store/connection.ts:
 * 'blocked', 'opened', 'superseded', 'terminated'); the page hears it from every worker it started.
 */
export const STORAGE_NOTICE = 'semece-storage-notice';

export type StorageNotice = 'blocked' | 'opened' | 'superseded' | 'terminated';

export type StorageNoticeMessage = { [STORAGE_NOTICE]: StorageNotice };

export const isStorageNotice = (data: unknown): data is StorageNoticeMessage => typeof data === 'object' && data !== null && STORAGE_NOTICE in data;

const noticeListeners = new Set<(notice: StorageNotice) => void>();
let lastNotice: StorageNotice | undefined;

/** Hears the storage notices of this page's workers, starting with the last one if any came; returns the function that stops. */
export function onStorageNotice(listener: (notice: StorageNotice) => void): () => void {
  noticeListeners.add(listener);
  if (lastNotice) listener(lastNotice);
  return () => noticeListeners.delete(listener);
}

export function heardNotice(notice: StorageNotice): void {
  lastNotice = notice;
  for (const listener of noticeListeners) listener(notice);
}

