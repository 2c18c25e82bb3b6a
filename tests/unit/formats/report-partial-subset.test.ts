/** A partial report's counts and a drawn subset survive the JSON round trip; impossible counts are refused by name. */
import { expect, test } from 'vitest';
import { demoDocument } from '../../e2e/report-fixture';
import { parseReport } from '../../../src/formats/report-import';
import { reportToJson } from '../../../src/formats/report-export';

test('partial and subset fields round-trip through the JSON export', () => {
  const doc = {
    ...demoDocument(),
    partial: { questions: 12, of: 40, status: 'paused' as const },
  };
  doc.dataset = { ...doc.dataset, source: 'hub:basicv8vc/SimpleQA:default/test', subset: { of: 4326, seed: 7, stratifiedBy: 'category', ids: ['q0001', 'q0009'] } };
  const back = parseReport(reportToJson(doc));
  if (!back.ok) throw new Error(back.error.message);
  expect(back.value.partial).toEqual(doc.partial);
  expect(back.value.dataset.subset).toEqual(doc.dataset.subset);
});

test('a partial report that claims more questions than its run had is refused', () => {
  const doc = { ...demoDocument(), partial: { questions: 41, of: 40, status: 'paused' } };
  const back = parseReport(JSON.stringify(doc));
  expect(back.ok).toBe(false);
  if (!back.ok) expect(`${back.error.where} ${back.error.message}`).toMatch(/partial.*at most as many questions/);
});
