/**
 * What every read of a stored document goes through: an upgrade from the version it was saved
 * at to the version this app writes, one step per version, then a validator. A record that is
 * corrupt, or was saved by a newer app, becomes a StoredRecordError naming the record and what
 * is wrong with it, never a crash further on.
 */
import { upgradeDocument, type DocumentVersions } from '../model/document-versions';
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

// The versions table and its stepping are shared with report files and links (model/document-versions.ts).
export type { DocumentVersions };

/** The document brought up to `versions.current`; throws a StoredRecordError if that cannot be done. */
export function upgradeToCurrent(document: unknown, version: unknown, versions: DocumentVersions, where: string, what: string): unknown {
  const upgraded = upgradeDocument(document, version, versions);
  if (upgraded.ok) return upgraded.value;
  const p = upgraded.problem;
  if (p.kind === 'no-version') throw new StoredRecordError(where, `The stored ${what} has no valid version (found ${JSON.stringify(p.found) ?? 'nothing'}).`);
  if (p.kind === 'newer') throw new StoredRecordError(where, `The stored ${what} was saved by a newer version of this app (version ${p.version}; this app reads up to ${p.current}).`);
  throw new StoredRecordError(where, `The stored ${what} is at version ${p.version}, which this app cannot upgrade.`);
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
