/**
 * A kept copy of a "rows" share link of an audited report (issue 30): the link's audited
 * questions' classes are stored in the document (`auditClasses`), so the copy read back from this
 * browser's store, and its JSON export read back as a file, give the audit the shared page gave.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { decodePayload, encodePayload, makeShareLink, SHARE_ROUTE } from '../../../src/share/codec';
import { openStores } from '../../../src/store/stores';
import { reportJsonFile } from '../../../src/formats/report-export';
import { parseReport, parseReportFile } from '../../../src/formats/report-import';
import { auditOfRequest } from '../../../src/workers/recompute-api';
import type { AuditLineRecord } from '../../../src/model/audit-repository';
import type { ReportDocument } from '../../../src/model/report';
import type { SharedReport } from '../../../src/share/codec';
import { sampleReport } from '../share/report-fixture';

const BASE = 'http://127.0.0.1:5173/index.html';
const PREFIX = BASE + SHARE_ROUTE;

/** 40 questions a model, 10 of the first model's audited with merges, splits and changed grades. */
function audited(): ReportDocument {
  const doc = sampleReport({ questions: 40 });
  const m = doc.models[0]!;
  const audit: AuditLineRecord[] = m.questions.slice(0, 10).map((q, i) => ({
    id: q.id,
    model: m.model,
    classes: i % 2 === 0 ? [[0, 3, 1, 4], [2, 5]] : i % 3 === 0 ? [[0], [3], [1, 4], [2, 5]] : [[0, 3], [1, 4], [2, 5]],
    grade: i % 4 === 1 ? 'NOT_ATTEMPTED' : q.grade,
    by: 'ana',
    at: '2026-12-06T10:00:00Z',
  }));
  return { ...doc, audit };
}

/** The shared page's document: the rows link opened, its classes put in the document as the page keeps it. */
function openedRowsLink(doc: ReportDocument): SharedReport {
  const rows = PREFIX.length + encodePayload(doc, 'rows').length;
  const link = makeShareLink(doc, BASE, rows);
  if (!link.ok) throw new Error(link.error.message);
  expect([link.value.detail, link.value.auditClasses]).toEqual(['rows', true]);
  const opened = decodePayload(link.value.url.slice(PREFIX.length));
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

const summaryOf = (doc: ReportDocument, assignments?: SharedReport['auditClasses']) =>
  auditOfRequest({ doc, lines: doc.audit!, strata: { by: 'none' }, ...(assignments ? { assignments } : {}) }).models[0]!;

/** What the audit results show: κ, agreement, ARI and pairwise, the ECE shifts, the report recomputed. */
const shown = (s: ReturnType<typeof summaryOf>) => ({ questions: s.questions, skipped: s.skipped, grades: s.grades, classes: s.classes, eceShift: s.eceShift, recomputed: s.recomputed?.signals });

describe("a kept copy of a rows link keeps the audited questions' classes", () => {
  test('saved in the store and read back, its audit is the shared page\'s; without the classes it is not', async () => {
    const shared = openedRowsLink(audited());
    const onPage = summaryOf(shared.report, shared.auditClasses);
    expect(onPage.questions).toBe(10);
    expect(onPage.classes.ari[0]).toBeLessThan(1);
    const kept: ReportDocument = { ...shared.report, auditClasses: shared.auditClasses };

    const stores = await openStores(`kept-copy-audit-${Math.random()}`);
    await stores.runs.saveReport('shared-1', kept);
    await stores.runs.saveReport('shared-bare', shared.report);
    const read = (await stores.runs.getReport('shared-1'))!;
    expect(read.models[0]!.questions.every((q) => q.samples === undefined)).toBe(true);
    expect(read.auditClasses).toEqual(shared.auditClasses);
    // Read with no classes from anywhere but the stored document, as the saved report's page reads it.
    expect(shown(summaryOf(read))).toEqual(shown(onPage));

    // The copy kept as before (no classes in it) skips every audited line: what this test guards.
    const bare = summaryOf((await stores.runs.getReport('shared-bare'))!);
    expect(bare.questions).toBe(0);
    expect(bare.skipped[0]!.reason).toBe('the report keeps no classes per answer for this question');
  });

  test('its JSON export, imported again, keeps them, and so does a rows link made from the copy', async () => {
    const shared = openedRowsLink(audited());
    const onPage = summaryOf(shared.report, shared.auditClasses);
    const kept: ReportDocument = { ...shared.report, auditClasses: shared.auditClasses };

    const file = reportJsonFile(kept);
    if (!file.ok) throw new Error(file.error.message);
    expect(file.value.leftOut).toBe('nothing');
    const imported = await parseReportFile(new Blob([file.value.text], { type: 'application/json' }));
    if (!imported.ok) throw new Error(imported.error.message);
    expect(imported.value.auditClasses).toEqual(shared.auditClasses);
    expect(shown(summaryOf(imported.value))).toEqual(shown(onPage));

    // Shared again: the copy has no samples, so the link is at rows and carries the classes from the document.
    const again = openedRowsLink(imported.value);
    expect(again.auditClasses).toEqual(shared.auditClasses);
    expect('auditClasses' in again.report).toBe(false);
    expect(shown(summaryOf(again.report, again.auditClasses))).toEqual(shown(onPage));
    // A summary link has no questions, so it carries no classes (they would name questions it lacks).
    const summary = decodePayload(encodePayload(kept, 'summary'));
    expect(summary.ok && 'auditClasses' in summary.value.report).toBe(false);
  });

  test('the report schema holds the classes to the report: its models and questions, one class per answer', () => {
    const shared = openedRowsLink(audited());
    const name = shared.report.models[0]!.model;
    const json = (auditClasses: unknown) => JSON.parse(JSON.stringify({ ...shared.report, auditClasses }));
    const problem = (auditClasses: unknown) => {
      const r = parseReport(json(auditClasses));
      return r.ok ? 'opened' : r.error.message;
    };
    expect(problem(shared.auditClasses)).toBe('opened');
    expect(problem({ [name]: { q0: [0, 1] } })).toMatch(/auditClasses.*q0.*: question "q0" needs a class for each of its 6 answers/);
    expect(problem({ [name]: { q0: [0, 1, 2, 0, 1, 6] } })).toMatch(/question "q0" has a class that is not a whole number from 0 to 5/);
    expect(problem({ [name]: { q0: [0, 1, 2, 0, 1, -1] } })).toMatch(/auditClasses.*q0.*whole number/);
    expect(problem({ [name]: { nowhere: [0, 1, 2, 0, 1, 2] } })).toMatch(/names a question the report does not have \("nowhere"\)/);
    expect(problem({ nobody: {} })).toMatch(/names a model the report does not have \("nobody"\)/);
    expect(problem([1, 2])).toMatch(/auditClasses/);
  });
});
