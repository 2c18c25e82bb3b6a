/**
 * What a failed IndexedDB write says. A full origin (QuotaExceededError, or the AbortError of a
 * transaction the quota aborted) gets words a user can act on: how much is used of how much,
 * that what was stored before is kept, and what to do. Anything else keeps its name and message
 * (a DOMException's message is often empty, which used to read "Could not store samples: .").
 */
import { storageUsed } from './settings';

export const STORAGE_FULL = 'StorageFullError';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function isQuotaError(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { name, message, error } = e as { name?: unknown; message?: unknown; error?: unknown };
  if (name === 'QuotaExceededError') return true;
  if (typeof message === 'string' && /quota/i.test(message)) return true;
  // A transaction aborted by the quota rejects with AbortError; its own `error` says why.
  return name === 'AbortError' && error !== undefined && error !== null && isQuotaError(error);
}

/** The error to throw for a write of `what` that failed with `e`. */
export async function storageWriteError(e: unknown, what: string): Promise<Error> {
  if (isQuotaError(e)) {
    let used = '';
    try {
      const estimate = await storageUsed();
      // Shown only when they agree with the refusal: a browser may refuse long before its estimate's quota (another limit applied).
      if (estimate && estimate.quota > 0 && estimate.usage >= 0.8 * estimate.quota) used = ` (${mb(estimate.usage)} used of ${mb(estimate.quota)})`;
    } catch {
      // No estimate: the message goes without the figures.
    }
    const error = new Error(
      `The browser's storage for this site is full${used}, so ${what} could not be stored. Everything stored before is kept. Free some space (delete runs you no longer need on the Runs page, or clear other sites' data in the browser's settings), then resume.`,
    );
    error.name = STORAGE_FULL;
    return error;
  }
  const { name, message } = (typeof e === 'object' && e !== null ? e : {}) as { name?: unknown; message?: unknown };
  const said = typeof message === 'string' ? message.replace(/\.$/, '') : String(e);
  const text = [typeof name === 'string' && name !== 'Error' ? name : '', said].filter(Boolean).join(': ');
  return new Error(`Could not store ${what}: ${text || 'the browser gave no reason'}.`);
}
