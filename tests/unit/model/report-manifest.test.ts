/** The manifest's hashes (model/report-manifest.ts): stable for equal content, sensitive to one answer, key order irrelevant. */
import { expect, test } from 'vitest';
import { canonicalJson, questionHash, reportManifest } from '../../../src/model/report-manifest';
import type { ModelReport, ReportQuestion, ReportSettings } from '../../../src/model/report';

const q = (): ReportQuestion => ({
  id: 'q1', question: 'Q?', gold: 'A', n: 2, sem1: 0.5, sem2: 0.5, verbalized: 0.7, correct: 1, grade: 'CORRECT',
  margin: 0, stdMargin: 0, regime: 'jensen', entropy: Math.LN2, nClasses: 2, modalLabel: 'A',
  classes: [{ label: 'A', size: 1 }, { label: 'B', size: 1 }],
  samples: [{ answer: 'A', confidence: 0.7, cls: 0 }, { answer: 'B', confidence: null, cls: 1 }],
});

test('canonical JSON sorts keys and writes non-finite numbers as null', () => {
  expect(canonicalJson({ b: 1, a: [NaN, { d: 2, c: 'x' }] })).toBe('{"a":[null,{"c":"x","d":2}],"b":1}');
});

test('a question hash is stable, ignores what it does not cover, and changes with one answer, one confidence or the grade', async () => {
  const base = await questionHash(q());
  expect(base).toMatch(/^[0-9a-f]{32}$/);
  expect(await questionHash(q())).toBe(base);
  expect(await questionHash({ ...q(), question: 'reworded' })).toBe(base);
  const answer = q();
  answer.samples![1].answer = 'C';
  expect(await questionHash(answer)).not.toBe(base);
  const confidence = q();
  confidence.samples![0].confidence = 0.71;
  expect(await questionHash(confidence)).not.toBe(base);
  expect(await questionHash({ ...q(), grade: 'INCORRECT', correct: 0 })).not.toBe(base);
});

test('a report manifest has one hash per question per model and one of the settings', async () => {
  const settings = { samples: 2, bins: 10, sem2: { R: 10, seed: 0, selection: 'half' }, bootstrap: { B: 10, seed: 7 }, clustering: { method: 'exact' }, grading: { method: 'alias' } } as ReportSettings;
  const doc = { settings, models: [{ model: 'm', questions: [q(), { ...q(), id: 'q2' }] } as ModelReport] };
  const m = await reportManifest(doc);
  expect(m.models).toHaveLength(doc.models.length);
  expect(Object.keys(m.models[0].questions)).toEqual(doc.models[0].questions.map((x) => x.id));
  expect((await reportManifest({ ...doc, settings: { ...doc.settings, bins: doc.settings.bins + 1 } })).settings).not.toBe(m.settings);
});
