import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { openStores } from '../../../src/store/stores';
import { MAX_STRING_LENGTH, truncationMarker } from '../../../src/formats/report-limits';
import { sampleReport } from '../share/report-fixture';

test('a report with a 200,000-character reply and a long title is saved cut to the limits, and opens again', async () => {
  const stores = await openStores(`saved-long-${Math.random()}`);
  const doc = sampleReport();
  doc.title = 'T'.repeat(150_000);
  doc.models[0].questions[0].samples![0].raw = 'r'.repeat(200_000);
  await stores.runs.saveReport('kept', doc);
  const back = await stores.runs.getReport('kept');
  expect(back!.title.length).toBe(MAX_STRING_LENGTH);
  expect(back!.title.endsWith(truncationMarker(150_000))).toBe(true);
  const sample = back!.models[0].questions[0].samples![0];
  expect(sample.rawLength).toBe(200_000);
  expect(sample.raw!.endsWith(truncationMarker(200_000))).toBe(true);
  expect((await stores.runs.listReportsWithoutRun()).map((r) => r.problem)).toEqual([undefined]);
});
