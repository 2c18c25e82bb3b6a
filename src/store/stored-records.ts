/**
 * What every read of a stored document goes through: an upgrade from the version it was saved
 * at to the version this app writes, one step per version, then a validator. A record that is
 * corrupt, or was saved by a newer app, becomes a StoredRecordError naming the record and what
 * is wrong with it, never a crash further on.
 */
import type { StageError } from '../model/rows';

export const STORED_RECORD = 'stored-record';

/** A stored record that cannot be read; `where` is `<store>/<key>`. */
export class StoredRecordError extends Error implements StageError {
  readonly kind = STORED_RECORD;
  readonly where: string;

  constructor(where: string, message: string) {
    super(message);
    this.name = 'StoredRecordError';
    this.where = where;
  }
}

/**
 * The versions of one kind of document: the one this app writes, and `steps[v]`, which turns a
 * version-v document into a version-(v + 1) one. A document shape change raises `current` and
 * adds the step from the previous version, so what older apps saved still opens.
 */
export interface DocumentVersions {
  current: number;
  steps: Readonly<Record<number, (document: unknown) => unknown>>;
}

/** The document brought up to `versions.current`; throws a StoredRecordError if that cannot be done. */
export function upgradeToCurrent(document: unknown, version: unknown, versions: DocumentVersions, where: string, what: string): unknown {
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new StoredRecordError(where, `The stored ${what} has no valid version (found ${JSON.stringify(version) ?? 'nothing'}).`);
  }
  if (version > versions.current) {
    throw new StoredRecordError(where, `The stored ${what} was saved by a newer version of this app (version ${version}; this app reads up to ${versions.current}).`);
  }
  let upgraded = document;
  for (let v = version; v < versions.current; v++) {
    const step = versions.steps[v];
    if (!step) throw new StoredRecordError(where, `The stored ${what} is at version ${v}, which this app cannot upgrade.`);
    upgraded = step(upgraded);
  }
  return upgraded;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
