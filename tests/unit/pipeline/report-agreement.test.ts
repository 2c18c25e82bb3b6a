import { expect, test } from 'vitest';
import { agreementWithFile } from '../../../src/pipeline/report-agreement';
import { packClusterings, packReportClusterings, reportClusterings, unpackClusterings } from '../../../src/pipeline/report-clusterings';
import { compareClusterings } from '../../../src/workers/import-api';
import { demoDocument } from '../../e2e/report-fixture';
import { reclusteredExact } from '../ui/report/agreement-fixture';

const model = demoDocument().models[0];

test("the report's clustering packed for the worker unpacks to the same rows, answers of any length and character included", () => {
  const own = reportClusterings(model);
  own.rows[0].answers[0] = '';
  own.rows[1].answers[1] = 'Réponse 東京 🗼 with\nlines';
  own.skipped.push({ id: 'x', reason: 'this report does not keep the samples of this question' });
  const packed = packClusterings(own);
  expect(packed.assignments).toBeInstanceOf(Int32Array);
  expect(unpackClusterings(packed)).toEqual(own);
  expect(unpackClusterings(packClusterings({ rows: [], skipped: [] }))).toEqual({ rows: [], skipped: [] });
});

test('the one-pass packer packs a report as packClusterings(reportClusterings(report)) does, questions without samples skipped alike', () => {
  const doc = structuredClone(model);
  delete doc.questions[2].samples;
  doc.questions[3].classes = [];
  expect(packReportClusterings(doc)).toEqual(packClusterings(reportClusterings(doc)));
  expect(packReportClusterings(doc).skipped.map((x) => x.id)).toEqual([doc.questions[2].id]);
});

test('the import worker\'s comparison (file read in parts, clustering packed) is the page\'s agreementWithFile', async () => {
  const text = reclusteredExact();
  const want = agreementWithFile(model, text, 'exact.clustered.jsonl');
  expect(want.ok).toBe(true);
  const file = Object.assign(new Blob([text]), { name: 'exact.clustered.jsonl' });
  const got = await compareClusterings(packClusterings(reportClusterings(model)), model.excludedQuestions, file);
  expect(got).toEqual(want);
  // A bad file is named, as on the page.
  const bad = await compareClusterings(packClusterings(reportClusterings(model)), [], Object.assign(new Blob(['{"id": 1']), { name: 'bad.jsonl' }));
  expect(!bad.ok && bad.error.message).toMatch(/^bad\.jsonl, line 1: bad JSON/);
});
