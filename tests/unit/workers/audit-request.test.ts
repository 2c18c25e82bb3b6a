import { expect, test } from 'vitest';
import { auditOfRequest } from '../../../src/workers/recompute-api';
import { demoDocument } from '../../e2e/report-fixture';
import type { AuditLine } from '../../../src/formats/audit-file';

test("the recompute worker's audit: a report without its answers summarises the same with the classes the page read from the caches", () => {
  const demo = demoDocument();
  const doc = { ...demo, models: [demo.models[0]], settings: { ...demo.settings, bootstrap: { B: 50, seed: 7 } } };
  const qs = doc.models[0].questions.slice(0, 4);
  // All answers in one class, and the grade flipped on one: ARI below 1 where the report had several classes.
  const lines: AuditLine[] = qs.map((q, i) => ({ id: q.id, classes: [Array.from({ length: q.n }, (_, j) => j)], grade: i === 0 ? (q.grade === 'CORRECT' ? 'INCORRECT' : 'CORRECT') : q.grade, by: 'ana', at: '2026-12-06T10:00:00Z' }));
  const withSamples = auditOfRequest({ doc, lines, strata: { by: 'none' } });
  const bare = { ...doc, models: [{ ...doc.models[0], questions: doc.models[0].questions.map(({ samples: _s, ...q }) => q) }] };
  const assignments = { [doc.models[0].model]: Object.fromEntries(qs.map((q) => [q.id, q.samples!.map((s) => s.cls)])) };
  const fromCaches = auditOfRequest({ doc: bare, lines, strata: { by: 'none' }, assignments });
  const m = withSamples.models[0];
  expect(m.questions).toBe(4);
  expect(m.grades.changed).toBe(1);
  expect(fromCaches.models[0].classes.ari).toEqual(m.classes.ari);
  expect(fromCaches.models[0].grades.kappa).toEqual(m.grades.kappa);
  expect(fromCaches.models[0].recomputed).toBeDefined();
  // Without them, the lines cannot be matched to automatic classes and say so.
  const none = auditOfRequest({ doc: bare, lines, strata: { by: 'none' } });
  expect(none.models[0].skipped).toHaveLength(4);
});
