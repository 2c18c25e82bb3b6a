/**
 * What the import worker serves: opening a share link's payload and a report file, the whole of
 * it (inflating, JSON.parse, the schema's check of every row) off the page's main thread, where
 * a 1.4 MB link of 177,000 rows used to freeze the page for seconds. Plain functions over the
 * same decodePayload and parseReportFile every other way in uses, so the messages are the same;
 * tests call them directly, import.worker.ts serves them, import-client.ts calls them.
 *
 * With `onRows` the question rows go to the page ahead of the document, in parts (import-rows.ts).
 * Also the agreement of a report's clustering with a clustered file (pipeline/report-agreement.ts):
 * parsing a 10,000-question file held the page for a third of a second.
 */
import type { ReportDocument } from '../model/report';
import type { Result } from '../model/rows';
import { decodePayload, type SharedReport } from '../share/codec';
import { parseReportFile } from '../formats/report-import';
import type { ImportProgress, OnImportProgress } from '../formats/import-progress';
import { throttle } from './throttle';
import { sendRows, type OnRows } from './import-rows';
import type { ExcludedQuestion } from '../model/report';
import { agreementOfClusterings, type ReportAgreement } from '../pipeline/report-agreement';
import { unpackClusterings, type PackedClusterings } from '../pipeline/report-clusterings';
import { compareDocuments, leaderboardOf } from './compare-api';
import { decodeCompareLink } from '../share/compare-link';
import { errorMessage } from '../model/app-error';

export interface ImportWorkerApi {
  /** A share link's payload (the part after `#/shared/`), inflated, parsed and checked. */
  openSharedLink(payload: string, onProgress?: OnImportProgress, onRows?: OnRows): Promise<Result<SharedReport>>;
  /** A report file chosen or dropped by the user, read, parsed and checked. */
  openReportFile(file: Blob & { name?: string }, onProgress?: OnImportProgress, onRows?: OnRows): Promise<Result<ReportDocument>>;
  /** A report's clustering (packed) against a clustered JSONL file of the same samples. */
  compareClusterings(own: PackedClusterings, excluded: ExcludedQuestion[], file: Blob & { name?: string }): Promise<Result<ReportAgreement>>;
  /** Reports compared pair by pair (compare-api.ts). */
  compareDocuments: typeof compareDocuments;
  /** Reports' models ranked by one signal's ECE (compare-api.ts). */
  leaderboardOf: typeof leaderboardOf;
  /** A comparison's or leaderboard's share link payload, inflated and checked (share/compare-link.ts). */
  openCompareLink: typeof decodeCompareLink;
}

/** Progress crosses to the page at most every 100 ms (each is a message), the last one always. */
const PROGRESS_MS = 100;

function throttled(onProgress: OnImportProgress | undefined) {
  return onProgress ? throttle<ImportProgress>(onProgress, PROGRESS_MS) : undefined;
}

export async function openSharedLink(payload: string, onProgress?: OnImportProgress, onRows?: OnRows): Promise<Result<SharedReport>> {
  const report = throttled(onProgress);
  const result = decodePayload(payload, report);
  report?.flush();
  if (!result.ok || !onRows) return result;
  return { ok: true, value: { ...result.value, report: await sendRows(result.value.report, onRows) } };
}

export async function openReportFile(file: Blob & { name?: string }, onProgress?: OnImportProgress, onRows?: OnRows): Promise<Result<ReportDocument>> {
  const report = throttled(onProgress);
  // The file is read in parts (the reading phase's progress) whether or not anyone listens.
  const result = await parseReportFile(file, report ?? (() => undefined));
  report?.flush();
  if (!result.ok || !onRows) return result;
  return { ok: true, value: await sendRows(result.value, onRows) };
}

/** The file's text in the parts it is decoded in: a file over V8's longest string still reads. */
async function textParts(file: Blob): Promise<string[]> {
  const parts: string[] = [];
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return parts;
}

export async function compareClusterings(own: PackedClusterings, excluded: ExcludedQuestion[], file: Blob & { name?: string }): Promise<Result<ReportAgreement>> {
  const name = file.name ?? 'the file';
  let parts: string[];
  try {
    parts = await textParts(file);
  } catch (e) {
    return { ok: false, error: { kind: 'bad-input', message: `${name} could not be read: ${errorMessage(e)}`, where: name } };
  }
  return agreementOfClusterings(unpackClusterings(own), excluded, parts, name);
}

export const importApi: ImportWorkerApi = { openSharedLink, openReportFile, compareClusterings, compareDocuments, leaderboardOf, openCompareLink: decodeCompareLink };
