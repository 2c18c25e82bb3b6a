/**
 * The importer every way in uses (Open report, a share link, the offline HTML viewer, stored
 * reports): the size limit before anything is parsed, the envelope (format and version) before
 * the fields, an older version upgraded step by step (report-versions.ts), then the document
 * schema (report-schema.ts); a refusal names the first bad field.
 * Progress is reported by phase for the import worker.
 */
import { REPORT_FORMAT, REPORT_VERSION, type ReportDocument } from '../model/report';
import type { Result, StageError } from '../model/rows';
import type { OnImportProgress } from './import-progress';
import { MAX_REPORT_BYTES } from './report-limits';
import { reportDocumentSchema } from './report-schema';
import { formatPath } from './field-path';
import { REPORT_VERSIONS } from './report-versions';
import { upgradeDocument } from '../model/document-versions';

function refuse(message: string, where?: string): Result<ReportDocument> {
  const error: StageError = { kind: 'report-import', message, ...(where ? { where } : {}) };
  return { ok: false, error };
}

function describeSize(chars: number): string {
  return `${(chars / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Checks the envelope first, so an unknown version gets its own message rather than a list of
 * field errors, then brings an older document up to REPORT_VERSION (report-versions.ts).
 */
function checkEnvelope(value: unknown): { ok: true; value: unknown } | { ok: false; refusal: Result<ReportDocument> } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, refusal: refuse('Not a Sem-ECE report: expected a JSON object at the top level.') };
  }
  const { format, version } = value as Record<string, unknown>;
  if (format !== REPORT_FORMAT) {
    return { ok: false, refusal: refuse(`Not a Sem-ECE report: "format" must be "${REPORT_FORMAT}".`, 'format') };
  }
  const upgraded = upgradeDocument(value, version, REPORT_VERSIONS);
  if (upgraded.ok) return upgraded;
  const p = upgraded.problem;
  if (p.kind === 'newer') {
    return {
      ok: false,
      refusal: refuse(
        `This report was made by a newer version of the app (report version ${p.version}; this app reads versions 1 to ${p.current}): open it in an up-to-date Sem-ECE.`,
        'version',
      ),
    };
  }
  const shown = typeof version === 'number' || typeof version === 'string' ? JSON.stringify(version) : 'missing';
  return { ok: false, refusal: refuse(`Unsupported report version ${shown}: this app reads versions 1 to ${REPORT_VERSION}.`, 'version') };
}

/** The question rows of a not yet validated document, for the progress line (0 where it has none). */
function rowCount(value: unknown): number {
  const models = (value as { models?: unknown }).models;
  if (!Array.isArray(models)) return 0;
  let rows = 0;
  for (const m of models) {
    const questions = (m as { questions?: unknown } | null)?.questions;
    if (Array.isArray(questions)) rows += questions.length;
  }
  return rows;
}

/**
 * Validates a report from JSON text or an already parsed value. Returns the document (nulls read
 * back as NaN where allowed) or a typed error whose message starts with the path of the first bad field.
 */
export function parseReport(input: string | unknown, onProgress?: OnImportProgress): Result<ReportDocument> {
  let value: unknown = input;
  if (typeof input === 'string') {
    // A UTF-16 length bounds the UTF-8 size from below, so this refuses only what is over the limit.
    if (input.length > MAX_REPORT_BYTES) {
      return refuse(`The report is ${describeSize(input.length)}; the limit is ${describeSize(MAX_REPORT_BYTES)}.`);
    }
    onProgress?.({ phase: 'parsing', total: input.length, unit: 'bytes' });
    try {
      value = JSON.parse(input);
    } catch (e) {
      return refuse(`The file is not valid JSON: ${(e as Error).message}`);
    }
  }
  const envelope = checkEnvelope(value);
  if (!envelope.ok) return envelope.refusal;
  value = envelope.value;
  onProgress?.({ phase: 'validating', total: rowCount(value), unit: 'rows' });
  let parsed;
  try {
    parsed = reportDocumentSchema.safeParse(value, {
      error: (iss) => (iss.code === 'invalid_type' && iss.input === undefined ? `missing (expected ${iss.expected})` : undefined),
    });
  } catch (e) {
    // Only absurd inputs (nesting deep enough to exhaust the stack) get here.
    return refuse(`The report could not be checked: ${(e as Error).message}`);
  }
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues;
  const first = issues[0];
  const where = formatPath(first.path);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return refuse(`${where}: ${first.message}${more}`, where);
}

/** The file's text, read in parts so the bytes read so far can be reported. */
async function readText(file: Blob, onProgress: OnImportProgress): Promise<string> {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let done = 0;
  onProgress({ phase: 'reading', done, total: file.size, unit: 'bytes' });
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    done += chunk.value.length;
    parts.push(decoder.decode(chunk.value, { stream: true }));
    onProgress({ phase: 'reading', done, total: file.size, unit: 'bytes' });
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/**
 * Reads a user's file, refusing one over the size limit before reading a byte of it. With
 * `onProgress` (the import worker) the file is read in parts and every phase is reported.
 */
export async function parseReportFile(file: Blob & { name?: string }, onProgress?: OnImportProgress): Promise<Result<ReportDocument>> {
  if (file.size > MAX_REPORT_BYTES) {
    return refuse(`${file.name ?? 'The file'} is ${describeSize(file.size)}; the limit is ${describeSize(MAX_REPORT_BYTES)}.`);
  }
  let content: string;
  try {
    content = onProgress ? await readText(file, onProgress) : await file.text();
  } catch (e) {
    return refuse(`${file.name ?? 'The file'} could not be read: ${(e as Error).message}`);
  }
  const result = parseReport(content, onProgress);
  if (!result.ok && file.name) result.error.message = `${file.name}: ${result.error.message}`;
  return result;
}
