/**
 * The report's ECE interval, calibration test and consistency bands (issue 24) in the import
 * schema: new reports round-trip, reports made before they existed still open, and damaged values
 * are refused with their path.
 */
import { expect, test } from 'vitest';
import { parseReport } from '../../../src/formats/report-import';
import { sampleReport } from '../share/report-fixture';
import { demoDocument } from '../../e2e/report-fixture';

const scored = () => JSON.parse(JSON.stringify(demoDocument()));

function refusal(input: unknown): string {
  const r = parseReport(input);
  if (r.ok) throw new Error('expected the report to be refused');
  return r.error.message;
}

test('a scored report round-trips its intervals, p-values, method, bands and regime intervals', () => {
  const doc = demoDocument();
  const m = doc.models[0].metrics;
  expect(m.eceInferenceMethod).toBe('consistency-inversion');
  expect(m.eceInference!.sem1!.interval).toHaveLength(2);
  expect(m.consistencyBands!.sem1).toHaveLength(10);
  expect(Object.values(m.byRegime).some((r) => r.eceInference?.sem1)).toBe(true);
  const back = parseReport(JSON.stringify(doc));
  if (!back.ok) throw new Error(back.error.message);
  const b = back.value.models[0].metrics;
  expect(b.eceInference).toEqual(m.eceInference);
  expect(b.eceInferenceMethod).toBe(m.eceInferenceMethod);
  // Empty bins' bands are NaN, written as null and read back as NaN.
  expect(b.consistencyBands).toEqual(m.consistencyBands);
  expect(b.byRegime).toEqual(m.byRegime);
});

test('a report made before them (the share fixture, and a scored one with them removed) still imports, without them', () => {
  const old = sampleReport();
  expect(old.models[0].metrics.eceInference).toBeUndefined();
  expect(parseReport(JSON.stringify(old)).ok).toBe(true);
  const j = scored();
  for (const m of j.models) {
    delete m.metrics.eceInference;
    delete m.metrics.eceInferenceMethod;
    delete m.metrics.consistencyBands;
    for (const r of Object.values(m.metrics.byRegime) as any[]) delete r.eceInference;
  }
  const back = parseReport(j);
  if (!back.ok) throw new Error(back.error.message);
  expect(back.value.models[0].metrics.eceInference).toBeUndefined();
  expect(back.value.models[0].metrics.consistencyBands).toBeUndefined();
});

test('a damaged interval, p-value or band is refused with its path', () => {
  const a = scored();
  a.models[0].metrics.eceInference.sem1.p = 1.5;
  expect(refusal(a)).toMatch(/^models\[0\]\.metrics\.eceInference\.sem1\.p: expected a number in \[0,1\], got 1\.5/);
  const b = scored();
  b.models[0].metrics.eceInference.sem2.interval = [0.1];
  expect(refusal(b)).toMatch(/^models\[0\]\.metrics\.eceInference\.sem2\.interval/);
  const c = scored();
  c.models[0].metrics.consistencyBands.sem1[3].bin = 5000;
  expect(refusal(c)).toMatch(/^models\[0\]\.metrics\.consistencyBands\.sem1\[3\]\.bin: /);
  const d = scored();
  const regime = Object.keys(d.models[0].metrics.byRegime).find((r) => d.models[0].metrics.byRegime[r].eceInference?.sem1)!;
  d.models[0].metrics.byRegime[regime].eceInference.sem1.interval = [-0.2, 0.1];
  expect(refusal(d)).toMatch(new RegExp(`^models\\[0\\]\\.metrics\\.byRegime\\.${regime}\\.eceInference\\.sem1\\.interval`));
});
