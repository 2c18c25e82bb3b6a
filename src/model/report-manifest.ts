/**
 * A report's manifest: a hash of each question's samples (answers, confidences, class of each
 * sample), classes and grade, and one of the settings, so a report can be checked against the
 * rows it claims to come from (pipeline/report-verify.ts, `semece verify`, Open report's
 * "Verify against a sample file"). SHA-256 by WebCrypto (`crypto.subtle`, in every browser and
 * in Node 20 alike) over a canonical JSON (keys sorted, arrays in order), truncated to 128 bits:
 * enough to tell any two inputs apart, half the bytes in a 40,000-question report.
 */
import type { ReportDocument, ReportManifest, ReportQuestion, ReportSettings } from './report';

export const MANIFEST_METHOD = 'sha256-128-canonical-json-v1';

export type { ReportManifest };

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return typeof value === 'number' && !Number.isFinite(value) ? 'null' : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The first 128 bits of SHA-256 of the text, as hex. */
export async function hashText(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What a question's hash covers: its samples (answer, confidence, class), classes and grade. */
export function hashedQuestion(q: ReportQuestion): unknown {
  return {
    id: q.id,
    samples: q.samples?.map((s) => [s.answer, s.confidence, s.cls]) ?? null,
    classes: q.classes?.map((c) => [c.label, c.size]) ?? null,
    grade: q.grade,
    correct: q.correct,
  };
}

export const questionHash = (q: ReportQuestion) => hashText(canonicalJson(hashedQuestion(q)));
export const settingsHash = (s: ReportSettings) => hashText(canonicalJson(s));

/** The manifest of a report's questions and settings. */
export async function reportManifest(doc: Pick<ReportDocument, 'settings' | 'models'>): Promise<ReportManifest> {
  const models = [];
  for (const m of doc.models) {
    const hashes = await Promise.all(m.questions.map(questionHash));
    models.push({ model: m.model, questions: Object.fromEntries(m.questions.map((q, i) => [q.id, hashes[i]])) });
  }
  return { method: MANIFEST_METHOD, settings: await settingsHash(doc.settings), models };
}
