/**
 * The one way a versioned document is brought up to the shape this app writes: a step per
 * version, run in order. Stored records (store/stored-records.ts) and report files, share links
 * and the offline viewer (formats/report-versions.ts) use it, each wording its own refusals.
 */

/**
 * The versions of one kind of document: the one this app writes, and `steps[v]`, which turns a
 * version-v document into a version-(v + 1) one. A document shape change raises `current` and
 * adds the step from the previous version, so what older apps wrote still opens.
 */
export interface DocumentVersions {
  current: number;
  steps: Readonly<Record<number, (document: unknown) => unknown>>;
}

/** Why a document could not be upgraded: no usable version, one newer than `current`, or a version with no step. */
export type UpgradeProblem =
  | { kind: 'no-version'; found: unknown }
  | { kind: 'newer'; version: number; current: number }
  | { kind: 'no-step'; version: number };

export type UpgradeResult = { ok: true; value: unknown } | { ok: false; problem: UpgradeProblem };

/** The document at `version` brought up to `versions.current`, or why that cannot be done. */
export function upgradeDocument(document: unknown, version: unknown, versions: DocumentVersions): UpgradeResult {
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return { ok: false, problem: { kind: 'no-version', found: version } };
  if (version > versions.current) return { ok: false, problem: { kind: 'newer', version, current: versions.current } };
  let upgraded = document;
  for (let v = version; v < versions.current; v++) {
    const step = versions.steps[v];
    if (!step) return { ok: false, problem: { kind: 'no-step', version: v } };
    upgraded = step(upgraded);
  }
  return { ok: true, value: upgraded };
}
