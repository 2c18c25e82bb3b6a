/**
 * The report document's versions and the steps between them (model/document-versions.ts, the
 * same stepping stored records use). Every way a report comes in (a file, a share link, the
 * offline viewer, a saved report, `semece compare` and `verify`) is brought up to REPORT_VERSION
 * here before the schema checks it, so an older file opens rather than being refused. The
 * history and the rule for the next change: docs/REPORT-FORMAT.md.
 */
import type { DocumentVersions } from '../model/document-versions';
import { REPORT_VERSION } from '../model/report';

type Doc = Record<string, unknown>;

/**
 * Version 1 is every report written from the first build to 2026-12-04. Its shape grew, but only
 * by optional fields (the baseline, the signal comparison, eceBiasCorrected, eceInference,
 * consistency bands, abstention, question fields, the manifest …) and new values
 * (entailment clustering, samples 0): the current schema reads each of those shapes as it is,
 * with what an older document lacks left absent (the views compute or leave out what is missing).
 * Version 2 is that shape under a version that older builds refuse with "newer version" rather
 * than misreading, so the step changes nothing but the number: every value is kept bit for bit.
 */
const from1: (document: unknown) => unknown = (document) => ({ ...(document as Doc), version: 2 });

/**
 * Version 3 (issue 29) adds signals (semantic_entropy, num_sets, eigv, degree, eccentricity,
 * lexical_similarity: new values of every by-signal map and of questions' `signals`) and two
 * optional metrics, `rejection` (PRR, AUARC) and `recalibration` (ECE after cross-fitted isotonic
 * and Platt maps). A version-2 document has none of them, and none is computed on import: the step
 * changes only the number, every value kept bit for bit.
 */
const from2: (document: unknown) => unknown = (document) => ({ ...(document as Doc), version: 3 });

/** Report versions: `steps[v]` turns a version-v document into a version-(v + 1) one. */
export const REPORT_VERSIONS: DocumentVersions = { current: REPORT_VERSION, steps: { 1: from1, 2: from2 } };
