/**
 * The limits a report document is held to, stated once for the writer and the reader
 * (report-schema.ts refuses what exceeds them), and the writer's side of them: a document is cut
 * to fit before it is stored, exported or shared, so that everything the app writes, the app
 * opens. A raw reply can be as long as a model likes; one longer than the reader accepts is kept
 * up to the limit and ends with a marker naming its original length.
 */
import type { ReportDocument } from '../model/report';
import type { Result } from '../model/rows';
import { utf8Length } from './utf8-length';
import { auditClassesOf } from './audit-classes-of';

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

/** What a file left out to stay within MAX_REPORT_BYTES, from least to most. */
export type LeftOut = 'nothing' | 'raw replies' | 'samples and classes';

export interface FittedReportText {
  text: string;
  leftOut: LeftOut;
}

const describeMB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The document at one level of detail. Never mutates the input. Without samples, an attached
 * audit keeps the audited questions' classes (`auditClasses`), which its statistics need.
 */
export function reportAtDetail(doc: ReportDocument, leftOut: LeftOut): ReportDocument {
  if (leftOut === 'nothing') return doc;
  const auditClasses = leftOut === 'samples and classes' ? auditClassesOf(doc) : undefined;
  return {
    ...doc,
    ...(auditClasses ? { auditClasses } : {}),
    models: doc.models.map((m) => ({
      ...m,
      questions: m.questions.map((q) => {
        if (leftOut === 'samples and classes') {
          const { samples: _s, classes: _c, ...row } = q;
          return row;
        }
        return q.samples ? { ...q, samples: q.samples.map(({ raw: _raw, rawLength: _len, ...s }) => s) } : q;
      }),
    })),
  };
}

/**
 * The document rendered by `render` (its JSON, or that JSON escaped for HTML) at the most detail
 * whose text the reader still opens: all of it; else without raw replies; else without samples
 * and classes, which the per-question table and every chart do without. A report too large even
 * then is refused with its size. Size is counted in UTF-8 bytes, which bounds both the file size
 * and the string length the reader checks. JSON.stringify itself throws RangeError past the
 * engine's longest string (about 512 MB in V8): that is too large too, and the next level is tried.
 */
export function fitReportSize(
  doc: ReportDocument,
  render: (doc: ReportDocument) => string,
  limit = MAX_REPORT_BYTES,
): Result<FittedReportText> {
  let smallest = Number.POSITIVE_INFINITY;
  for (const leftOut of ['nothing', 'raw replies', 'samples and classes'] as const) {
    const hasDetail = doc.models.some((m) => m.questions.some((q) => (leftOut === 'raw replies' ? q.samples?.some((s) => s.raw !== undefined) : q.samples || q.classes)));
    if (leftOut !== 'nothing' && !hasDetail) continue;
    let text: string;
    try {
      text = render(reportAtDetail(doc, leftOut));
    } catch (e) {
      if (e instanceof RangeError) continue;
      throw e;
    }
    // A string of L code units is at least L and at most 3L bytes in UTF-8: count only when it can matter.
    const bytes = text.length * 3 <= limit ? null : utf8Length(text);
    if (bytes === null || bytes <= limit) return { ok: true, value: { text, leftOut } };
    smallest = Math.min(smallest, bytes);
  }
  const size = Number.isFinite(smallest) ? describeMB(smallest) : 'more than a JavaScript string can hold';
  return {
    ok: false,
    error: {
      kind: 'report-too-large',
      message:
        `The report is too large for one file: ${size} even without raw replies, samples and classes; ` +
        `a report file may be at most ${describeMB(limit)}. Score fewer questions per report, or split the models into separate reports.`,
    },
  };
}

/** The sentence a writer shows when a file left something out (empty when it did not). */
export function leftOutNote(leftOut: LeftOut): string {
  if (leftOut === 'nothing') return '';
  return `The ${leftOut} were left out to keep the file within ${describeMB(MAX_REPORT_BYTES)}, the largest report the app opens.`;
}
