/**
 * What the import worker serves: opening a share link's payload and a report file, the whole of
 * it (inflating, JSON.parse, the schema's check of every row) off the page's main thread, where
 * a 1.4 MB link of 177,000 rows used to freeze the page for seconds. Plain functions over the
 * same decodePayload and parseReportFile every other way in uses, so the messages are the same;
 * tests call them directly, import.worker.ts serves them, import-client.ts calls them.
 *
 * With `onRows` the question rows go to the page ahead of the document, in parts (import-rows.ts).
 */
import type { ReportDocument } from '../model/report';
import type { Result } from '../model/rows';
import { decodePayload, type SharedReport } from '../share/codec';
import { parseReportFile } from '../formats/report-import';
import type { ImportProgress, OnImportProgress } from '../formats/import-progress';
import { throttle } from './throttle';
import { sendRows, type OnRows } from './import-rows';

export interface ImportWorkerApi {
  /** A share link's payload (the part after `#/shared/`), inflated, parsed and checked. */
  openSharedLink(payload: string, onProgress?: OnImportProgress, onRows?: OnRows): Promise<Result<SharedReport>>;
  /** A report file chosen or dropped by the user, read, parsed and checked. */
  openReportFile(file: Blob & { name?: string }, onProgress?: OnImportProgress, onRows?: OnRows): Promise<Result<ReportDocument>>;
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

export const importApi: ImportWorkerApi = { openSharedLink, openReportFile };
