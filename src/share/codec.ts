/**
 * Share links: the report deflated (fflate) and base64url-encoded into the URL fragment
 * `#/shared/<payload>`. A fragment is never sent to any server, so the report stays with the
 * people who hold the link.
 *
 * Size: a link may be at most MAX_SHARE_URL_LENGTH (32 KB) characters in all. Chromium accepts
 * far longer URLs, but chat apps, mail clients and QR codes cut long links, so we stay well
 * below. The encoder tries, in order: the whole report without raw replies ('full'), the
 * per-question rows without samples and classes ('rows'), the summary alone ('summary'); the
 * first that fits is used. When even the summary does not fit, the caller offers the JSON or
 * HTML file instead. A report with an attached audit sends, at 'rows', the audited questions'
 * classes per answer beside the rows (audit-classes.ts), so the audit's results still show; when
 * they would not fit, the rows go without them before the summary alone is tried.
 *
 * Decoding trusts nothing: the payload length, the inflated size and the document (parseReport)
 * are all checked, so a crafted link is refused with a message, never run or half-shown.
 */
import { Inflate, deflateSync, strFromU8, strToU8 } from 'fflate';
import type { ReportDocument } from '../model/report';
import { parseReport } from '../formats/report-import';
import { reportToJson } from '../formats/report-export';
import type { Result } from '../model/rows';
import type { OnImportProgress } from '../formats/import-progress';
import { auditClassesOf, auditClassesProblem, type AuditClasses } from './audit-classes';

export const MAX_SHARE_URL_LENGTH = 32 * 1024;
/** Longest payload a link may carry when opened (crafted links included); browsers cap near 2 MB. */
export const MAX_SHARE_PAYLOAD_CHARS = 2 * 1024 * 1024;
/**
 * Largest inflated JSON accepted from a link: bounds a "deflate bomb" and the memory that parsing
 * and checking the report takes. A link the app makes is at most MAX_SHARE_URL_LENGTH and a
 * report's JSON deflates some 5 to 20 times, so its JSON is well under 1 MB; 16 MB leaves room
 * for any real link and refuses what would cost a tab hundreds of MB to parse.
 */
export const MAX_SHARE_JSON_BYTES = 16 * 1024 * 1024;
export const SHARE_ROUTE = '#/shared/';

export type ShareDetail = 'full' | 'rows' | 'summary';

interface Envelope {
  /** What was left out, so the page can say so. */
  detail: ShareDetail;
  report: unknown;
  /** At 'rows' with an audit attached: the audited questions' classes per answer (audit-classes.ts). */
  auditClasses?: unknown;
}

export function base64urlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function base64urlDecode(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    return null;
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The report cut down to one level of detail. Never mutates the input. */
export function reduceReport(doc: ReportDocument, detail: ShareDetail): ReportDocument {
  // A kept copy's audit classes go in the envelope at 'rows' (when they fit), and a summary has no questions for them.
  const { auditClasses: _classes, ...rest } = doc;
  return {
    ...(detail === 'full' ? doc : rest),
    models: doc.models.map((m) => ({
      ...m,
      questions:
        detail === 'summary'
          ? []
          : m.questions.map((q) => {
              if (detail === 'rows') {
                const { samples: _s, classes: _c, ...row } = q;
                return row;
              }
              return q.samples ? { ...q, samples: q.samples.map(({ raw: _raw, ...s }) => s) } : q;
            }),
    })),
  };
}

/** The link's payload; `withAuditClasses` (at 'rows') adds the audited questions' classes when the report has them. */
export function encodePayload(doc: ReportDocument, detail: ShareDetail, withAuditClasses = detail === 'rows'): string {
  const envelope: Envelope = { detail, report: JSON.parse(reportToJson(reduceReport(doc, detail))) };
  const classes = withAuditClasses && detail === 'rows' ? auditClassesOf(doc) : undefined;
  if (classes) envelope.auditClasses = classes;
  return base64urlEncode(deflateSync(strToU8(JSON.stringify(envelope)), { level: 9 }));
}

export interface ShareLink {
  url: string;
  detail: ShareDetail;
  /** Length of the whole URL in characters. */
  length: number;
  /** At 'rows': whether the audited questions' classes came along (so the audit's results show). */
  auditClasses: boolean;
}

/**
 * The shortest-to-explain link that fits: the whole report if it can, else the rows, else the
 * summary. `base` is the app's address without fragment (e.g. location.href.split('#')[0]).
 */
export function makeShareLink(doc: ReportDocument, base: string, limit = MAX_SHARE_URL_LENGTH): Result<ShareLink> {
  const prefix = base.split('#')[0] + SHARE_ROUTE;
  const tried: string[] = [];
  const audited = auditClassesOf(doc) !== undefined;
  const tries: { detail: ShareDetail; classes: boolean }[] = [
    { detail: 'full', classes: false },
    ...(audited ? [{ detail: 'rows' as const, classes: true }] : []),
    { detail: 'rows', classes: false },
    { detail: 'summary', classes: false },
  ];
  for (const { detail, classes } of tries) {
    if (detail === 'full' && !doc.models.some((m) => m.questions.some((q) => q.samples || q.classes))) continue;
    const url = prefix + encodePayload(doc, detail, classes);
    if (url.length <= limit) return { ok: true, value: { url, detail, length: url.length, auditClasses: classes } };
    // The sizes said are those of each detail's shortest try.
    if (!(detail === 'rows' && classes)) tried.push(`${detail === 'summary' ? 'the summary alone' : detail === 'rows' ? 'with per-question rows' : 'with samples'}: ${formatKB(url.length)}`);
  }
  return {
    ok: false,
    error: {
      kind: 'share-too-large',
      message:
        `This report is too large for a link (${tried.join('; ')}; a link may be at most ${formatKB(limit)}). ` +
        'Download it as a JSON or HTML file and send the file instead.',
    },
  };
}

export function formatKB(chars: number): string {
  return `${(chars / 1024).toFixed(1)} KB`;
}

function refuse(message: string): Result<never> {
  return { ok: false, error: { kind: 'share-link', message } };
}

/** Inflates with a ceiling on the output, feeding small chunks so no step can balloon. */
export function inflateLimited(bytes: Uint8Array, limit: number, onProgress?: OnImportProgress): Uint8Array | string {
  const parts: Uint8Array[] = [];
  let total = 0;
  let over = false;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > limit) over = true;
    else parts.push(chunk);
  });
  try {
    const step = 1024;
    for (let i = 0; i < bytes.length && !over; i += step) {
      inflater.push(bytes.subarray(i, i + step), i + step >= bytes.length);
      // Every 64 KB of the link (the caller throttles further).
      if (onProgress && (i / step) % 64 === 63) onProgress({ phase: 'inflating', done: i + step, total: bytes.length, unit: 'bytes' });
    }
  } catch (e) {
    return `the link is damaged (${(e as Error).message})`;
  }
  if (over) return `the report in the link unpacks to more than ${Math.round(limit / 1024 / 1024)} MB`;
  onProgress?.({ phase: 'inflating', done: bytes.length, total: bytes.length, unit: 'bytes' });
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export interface SharedReport {
  report: ReportDocument;
  detail: ShareDetail;
  /** The audited questions' classes per answer, when a 'rows' link carried them (checked against the report). */
  auditClasses?: AuditClasses;
}

/**
 * Reads a payload (the part after `#/shared/`). The import worker runs it off the page's main
 * thread and passes `onProgress`; a 1.4 MB link takes seconds to inflate, parse and check.
 */
export function decodePayload(payload: string, onProgress?: OnImportProgress): Result<SharedReport> {
  if (payload.length === 0) return refuse('The share link is empty: it holds no report.');
  if (payload.length > MAX_SHARE_PAYLOAD_CHARS) return refuse(`The share link is too long (${formatKB(payload.length)}).`);
  const bytes = base64urlDecode(payload);
  if (!bytes) return refuse('The share link is damaged: it contains characters a link made by this app never has. Was it cut or edited?');
  onProgress?.({ phase: 'inflating', done: 0, total: bytes.length, unit: 'bytes' });
  const inflated = inflateLimited(bytes, MAX_SHARE_JSON_BYTES, onProgress);
  if (typeof inflated === 'string') return refuse(`The share link cannot be opened: ${inflated}. Was it cut short?`);
  let envelope: Partial<Envelope>;
  try {
    onProgress?.({ phase: 'parsing', total: inflated.length, unit: 'bytes' });
    envelope = JSON.parse(strFromU8(inflated)) as Partial<Envelope>;
  } catch {
    return refuse('The share link cannot be opened: its content is not a report. Was it cut short?');
  }
  const detail = envelope?.detail;
  if (detail !== 'full' && detail !== 'rows' && detail !== 'summary') {
    return refuse('The share link cannot be opened: it was not made by this app.');
  }
  const parsed = parseReport(envelope.report, onProgress);
  if (!parsed.ok) return refuse(`The report in the link is not valid: ${parsed.error.message}`);
  if (envelope.auditClasses === undefined) return { ok: true, value: { report: parsed.value, detail } };
  const problem = auditClassesProblem(envelope.auditClasses, parsed.value);
  if (problem !== null) return refuse(`The share link cannot be opened: the audited questions' classes in it are not valid: ${problem}.`);
  return { ok: true, value: { report: parsed.value, detail, auditClasses: envelope.auditClasses as AuditClasses } };
}
