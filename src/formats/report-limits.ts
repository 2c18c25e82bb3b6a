/**
 * The limits a report document is held to, stated once for the writer and the reader
 * (report-schema.ts refuses what exceeds them), and the writer's side of them: a document is cut
 * to fit before it is stored, exported or shared, so that everything the app writes, the app
 * opens. A raw reply can be as long as a model likes; one longer than the reader accepts is kept
 * up to the limit and ends with a marker naming its original length.
 */
import type { ReportDocument } from '../model/report';

/** Largest report file (and JSON text) the reader opens. */
export const MAX_REPORT_BYTES = 200 * 1024 * 1024;
/** Longest single string the reader accepts, in UTF-16 code units (JavaScript's string length). */
export const MAX_STRING_LENGTH = 100_000;

/** What ends a string the writer cut: "… [truncated: 200,000 characters]". */
export function truncationMarker(originalLength: number): string {
  return `… [truncated: ${originalLength.toLocaleString('en')} characters]`;
}

/**
 * The text itself when it fits, else its first characters and the marker, `limit` characters at
 * most in all. A cut never splits a surrogate pair, so the kept part is still valid text.
 */
export function truncateText(text: string, limit = MAX_STRING_LENGTH): string {
  if (text.length <= limit) return text;
  const marker = truncationMarker(text.length);
  let keep = Math.max(0, limit - marker.length);
  const last = text.charCodeAt(keep - 1);
  if (keep > 0 && last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return text.slice(0, keep) + marker;
}

/**
 * Every string of the value cut to the limit. Copies only the objects on the way to a string it
 * cuts and returns the very same value when nothing is too long, so the common case costs one
 * walk and no allocation. A sample whose raw reply is cut records the reply's length as
 * `rawLength`.
 */
function fitValue(value: unknown): unknown {
  if (typeof value === 'string') return truncateText(value);
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (typeof v !== 'string' && (typeof v !== 'object' || v === null)) continue;
      const fitted = fitValue(v);
      if (fitted !== v) (out ??= value.slice())[i] = fitted;
    }
    return out ?? value;
  }
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | null = null;
    for (const key of Object.keys(record)) {
      const v = record[key];
      if (typeof v !== 'string' && (typeof v !== 'object' || v === null)) continue;
      const fitted = fitValue(v);
      if (fitted === v) continue;
      out ??= { ...record };
      out[key] = fitted;
      if (key === 'raw' && typeof v === 'string') out.rawLength = v.length;
    }
    return out ?? value;
  }
  return value;
}

/** The document with every string within MAX_STRING_LENGTH; the same object when it already fits. */
export function fitReportLimits(doc: ReportDocument): ReportDocument {
  return fitValue(doc) as ReportDocument;
}
