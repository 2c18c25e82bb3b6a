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

/** What a write refused for lack of room says (`used`: " (x MB used of y MB)" or empty). */
function storageFullText(what: string, used: string, next: 'resume' | 'start'): string {
  const free = "Free some space (delete runs you no longer need on the Runs page, or clear other sites' data in the browser's settings)";
  // At "Start run" the new run was never stored: there is nothing to resume yet, and nothing was sent.
  if (next === 'start') return `The browser's storage for this site is full${used}, so the new run could not be stored and nothing was sent. Everything stored before is kept. ${free}, then start the run again.`;
  return `The browser's storage for this site is full${used}, so ${what} could not be stored. Everything stored before is kept. ${free}, then resume.`;
}

/** A write refused for lack of room; `used` is kept so the start of a run can word it for itself. */
class StorageFullError extends Error {
  constructor(readonly used: string, message: string) {
    super(message);
    this.name = STORAGE_FULL;
  }
}

/**
 * The error for a run that could not be stored when it was started: a full origin says to
 * start it again (there is no run to resume); any other error as it was.
 */
export function storageFullAtStart(e: unknown): unknown {
  return e instanceof StorageFullError ? new StorageFullError(e.used, storageFullText('', e.used, 'start')) : e;
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
    return new StorageFullError(used, storageFullText(what, used, 'resume'));
  }
  const { name, message } = (typeof e === 'object' && e !== null ? e : {}) as { name?: unknown; message?: unknown };
  const said = typeof message === 'string' ? message.replace(/\.$/, '') : String(e);
  const text = [typeof name === 'string' && name !== 'Error' ? name : '', said].filter(Boolean).join(': ');
  return new Error(`Could not store ${what}: ${text || 'the browser gave no reason'}.`);
}
