import { expect, test } from 'vitest';
import { reportDocumentSchema } from '../../../src/formats/report-schema';
import { demoDocument } from '../../e2e/report-fixture';

test("a report carries a person's audit as an optional field, its lines checked like the audit file's", () => {
  // As a file holds it: JSON writes NaN as null.
  const doc = JSON.parse(JSON.stringify(demoDocument()));
  const audit = [{ id: doc.models[0].questions[0].id, classes: [[0, 2], [1]], grade: 'INCORRECT', by: 'ana', at: '2026-12-06T10:00:00Z' }];
  const parsed = reportDocumentSchema.safeParse({ ...doc, audit });
  expect(parsed.success && parsed.data.audit).toEqual(audit);
  expect(reportDocumentSchema.safeParse(doc).success).toBe(true);
  const gap = reportDocumentSchema.safeParse({ ...doc, audit: [{ ...audit[0], classes: [[0, 2]] }] });
  expect(gap.success).toBe(false);
  expect(JSON.stringify(gap.error?.issues)).toMatch(/answer 1 is in no class/);
  expect(reportDocumentSchema.safeParse({ ...doc, audit: [{ ...audit[0], grade: 'MAYBE' }] }).success).toBe(false);
});

test("a report carries the attached audit's plans, written and read back through the report's own writer and reader", async () => {
  const { reportToJson } = await import('../../../src/formats/report-export');
  const { parseReport } = await import('../../../src/formats/report-import');
  const doc = demoDocument();
  const ids = doc.models[0]!.questions.slice(0, 2).map((q) => q.id);
  const auditPlans = [
    { by: 'ana', draw: 'stratified' as const, seed: 3, strata: 'regime', halfWidth: 0.1, ids },
    { by: 'bo', draw: 'plain' as const, seed: 0, ids: ids.slice(0, 1) },
  ];
  const read = parseReport(JSON.parse(reportToJson({ ...doc, auditPlans })));
  expect(read.ok && read.value.auditPlans).toEqual(auditPlans);
  const bad = reportDocumentSchema.safeParse({ ...JSON.parse(JSON.stringify(doc)), auditPlans: [{ ...auditPlans[1], strata: 'regime' }] });
  expect(bad.success).toBe(false);
  expect(JSON.stringify(bad.error?.issues)).toMatch(/only a stratified draw has strata/);
});
