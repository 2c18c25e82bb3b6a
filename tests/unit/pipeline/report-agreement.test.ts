import { expect, test } from 'vitest';
import { agreementWithFile } from '../../../src/pipeline/report-agreement';
import { packReportClusterings, reportClusterings, unpackClusterings } from '../../../src/pipeline/report-clusterings';
import { compareClusterings } from '../../../src/workers/import-api';
import { demoDocument } from '../../e2e/report-fixture';
import { reclusteredExact } from '../ui/report/agreement-fixture';

const model = demoDocument().models[0];

test("the report's clustering packed for the worker unpacks to reportClusterings, answers of any length and character included, questions without samples skipped alike", () => {
  const doc = structuredClone(model);
  doc.questions[0].samples![0].answer = '';
  doc.questions[1].samples![1].answer = 'Réponse 東京 🗼 with\nlines';
  delete doc.questions[2].samples;
  doc.questions[3].classes = [];
  const packed = packReportClusterings(doc);
  expect(packed.assignments).toBeInstanceOf(Int32Array);
  expect(unpackClusterings(packed)).toEqual(reportClusterings(doc));
  expect(packed.skipped.map((x) => x.id)).toEqual([doc.questions[2].id]);
  expect(unpackClusterings(packReportClusterings({ questions: [] }))).toEqual({ rows: [], skipped: [] });
});

test('the import worker\'s comparison (file read in parts, clustering packed) is the page\'s agreementWithFile', async () => {
  const text = reclusteredExact();
  const want = agreementWithFile(model, text, 'exact.clustered.jsonl');
  expect(want.ok).toBe(true);
  const file = Object.assign(new Blob([text]), { name: 'exact.clustered.jsonl' });
  const got = await compareClusterings(packReportClusterings(model), model.excludedQuestions, file);
  expect(got).toEqual(want);
  // A bad file is named, as on the page.
  const bad = await compareClusterings(packReportClusterings(model), [], Object.assign(new Blob(['{"id": 1']), { name: 'bad.jsonl' }));
  expect(!bad.ok && bad.error.message).toMatch(/^bad\.jsonl, line 1: bad JSON/);
});
