/**
 * A share link at "rows" detail with an attached audit (issue 30): the samples stay out, the
 * audited questions' classes per answer travel beside the rows (src/share/audit-classes.ts), and
 * the audit's statistics computed from the opened link are the ones computed from the whole report.
 */
import { describe, expect, test } from 'vitest';
import { deflateSync, strToU8 } from 'fflate';
import { base64urlEncode, decodePayload, encodePayload, makeShareLink, SHARE_ROUTE } from '../../../src/share/codec';
import { auditOfRequest } from '../../../src/workers/recompute-api';
import type { AuditLineRecord } from '../../../src/model/audit-repository';
import type { ReportDocument } from '../../../src/model/report';
import { sampleReport } from './report-fixture';

const BASE = 'http://127.0.0.1:5173/index.html';
const PREFIX = BASE + SHARE_ROUTE;

/** 40 questions a model, 10 of the first model's audited with merges, splits and changed grades. */
function audited(): ReportDocument {
  const doc = sampleReport({ questions: 40 });
  const m = doc.models[0]!;
  const audit: AuditLineRecord[] = m.questions.slice(0, 10).map((q, i) => ({
    id: q.id,
    model: m.model,
    // The fixture's classes are k % 3 of the six answers; the person merges two on even questions, splits one on every third.
    classes: i % 2 === 0 ? [[0, 3, 1, 4], [2, 5]] : i % 3 === 0 ? [[0], [3], [1, 4], [2, 5]] : [[0, 3], [1, 4], [2, 5]],
    grade: i % 4 === 1 ? 'NOT_ATTEMPTED' : q.grade,
    by: 'ana',
    at: '2026-12-06T10:00:00Z',
  }));
  return { ...doc, audit };
}

const open = (url: string) => decodePayload(url.slice(PREFIX.length));

describe('a rows link carries the audited questions\' classes', () => {
  test('the link opens without samples, and the audit from it equals the audit from the whole report', () => {
    const doc = audited();
    const full = PREFIX.length + encodePayload(doc, 'full').length;
    const rows = PREFIX.length + encodePayload(doc, 'rows').length;
    expect(rows).toBeLessThan(full);
    const link = makeShareLink(doc, BASE, rows);
    if (!link.ok) throw new Error(link.error.message);
    expect([link.value.detail, link.value.auditClasses]).toEqual(['rows', true]);
    const opened = open(link.value.url);
    if (!opened.ok) throw new Error(opened.error.message);
    const shared = opened.value;
    expect(shared.report.models[0]!.questions.every((q) => q.samples === undefined)).toBe(true);
    const name = doc.models[0]!.model;
    expect(Object.keys(shared.auditClasses![name]!)).toEqual(doc.audit!.map((l) => l.id));
    expect(shared.auditClasses![name]!.q0).toEqual([0, 1, 2, 0, 1, 2]);

    const whole = auditOfRequest({ doc, lines: doc.audit!, strata: { by: 'none' } }).models[0]!;
    const fromLink = auditOfRequest({ doc: shared.report, lines: shared.report.audit!, strata: { by: 'none' }, assignments: shared.auditClasses }).models[0]!;
    expect(whole.questions).toBe(10);
    expect(whole.classes.ari[0]).toBeLessThan(1);
    expect(fromLink.questions).toBe(10);
    expect(fromLink.skipped).toEqual([]);
    expect(fromLink.grades).toEqual(whole.grades);
    expect(fromLink.classes).toEqual(whole.classes);
    expect(fromLink.eceShift).toEqual(whole.eceShift);
    expect(fromLink.recomputed?.signals.sem1?.ece).toEqual(whole.recomputed?.signals.sem1?.ece);
    // Without the classes (a link of before): every line is skipped, nothing is measured.
    const bare = auditOfRequest({ doc: shared.report, lines: shared.report.audit!, strata: { by: 'none' } }).models[0]!;
    expect(bare.questions).toBe(0);
    expect(bare.skipped[0]!.reason).toBe('the report keeps no classes per answer for this question');
  });

  test('a report without an audit sends no classes; where they would not fit, the rows go without them before the summary', () => {
    const plain = { ...audited(), audit: undefined };
    const plainRows = decodePayload(encodePayload(plain, 'rows', true));
    expect(plainRows.ok && 'auditClasses' in plainRows.value).toBe(false);
    const doc = audited();
    const bare = PREFIX.length + encodePayload(doc, 'rows', false).length;
    expect(bare).toBeLessThan(PREFIX.length + encodePayload(doc, 'rows').length);
    const link = makeShareLink(doc, BASE, bare);
    expect(link.ok && [link.value.detail, link.value.auditClasses]).toEqual(['rows', false]);
    const opened = link.ok ? open(link.value.url) : null;
    expect(opened?.ok && opened.value.auditClasses).toBeUndefined();
  });

  test('forged classes are refused, naming what is wrong', () => {
    const doc = audited();
    const name = doc.models[0]!.model;
    const envelope = (auditClasses: unknown) => base64urlEncode(deflateSync(strToU8(JSON.stringify({ detail: 'rows', report: JSON.parse(JSON.stringify({ ...doc, models: doc.models.map((m) => ({ ...m, questions: m.questions.map(({ samples: _s, classes: _c, ...q }) => q) })) })), auditClasses }))));
    const message = (auditClasses: unknown) => {
      const r = decodePayload(envelope(auditClasses));
      return r.ok ? 'opened' : r.error.message;
    };
    expect(message({ [name]: { q0: [0, 1, 2, 0, 1, 2] } })).toBe('opened');
    expect(message({ [name]: { q0: [0, 1] } })).toMatch(/classes in it are not valid: question "q0" needs a class for each of its 6 answers/);
    expect(message({ [name]: { q0: [0, 1, 2, 0, 1, 9] } })).toMatch(/question "q0" has a class that is not a whole number from 0 to 5/);
    expect(message({ [name]: { q20: [0, 1, 2, 0, 1, 2] } })).toMatch(/a question the audit does not \("q20"\)/);
    expect(message({ nobody: {} })).toMatch(/a model the report does not have \("nobody"\)/);
    expect(message([1, 2])).toMatch(/they are not an object/);
  });
});
