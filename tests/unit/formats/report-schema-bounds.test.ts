/**
 * The report schema's ranges: every setting within model/scoring-limits.ts and every headline
 * number within its mathematical range, refused with the field's path and the value found.
 */
import { describe, expect, test } from 'vitest';
import { parseReport } from '../../../src/formats/report-import';
import { MAX_BINS, MAX_BOOTSTRAP_B, MAX_SEED } from '../../../src/model/scoring-limits';
import { sampleReport } from '../share/report-fixture';

/** A JSON copy of the fixture with one edit. */
function forged(edit: (j: any) => void): any {
  const j = JSON.parse(JSON.stringify(sampleReport()));
  edit(j);
  return j;
}

function refusal(edit: (j: any) => void): string {
  const r = parseReport(forged(edit));
  if (r.ok) throw new Error('expected the report to be refused');
  return r.error.message;
}

function accepted(edit: (j: any) => void): boolean {
  return parseReport(forged(edit)).ok;
}

describe('settings are bounded', () => {
  test('bins: a whole number from 1 to MAX_BINS', () => {
    expect(refusal((j) => (j.settings.bins = 1e9))).toBe('settings.bins: expected a whole number from 1 to 1,000, got 1000000000');
    expect(refusal((j) => (j.settings.bins = 0))).toBe('settings.bins: expected a whole number from 1 to 1,000, got 0');
    expect(refusal((j) => (j.settings.bins = 2.5))).toBe('settings.bins: expected a whole number from 1 to 1,000, got 2.5');
    expect(refusal((j) => (j.settings.bins = '10'))).toBe('settings.bins: expected a whole number from 1 to 1,000, got "10"');
    expect(accepted((j) => (j.settings.bins = MAX_BINS))).toBe(true);
  });

  test('bootstrap B and every bootstrap count', () => {
    expect(refusal((j) => (j.settings.bootstrap.B = 1e8))).toBe('settings.bootstrap.B: expected a whole number from 0 to 100,000, got 100000000');
    expect(refusal((j) => (j.models[0].metrics.bootstrap.B = 1e8))).toMatch(/^models\[0\]\.metrics\.bootstrap\.B: expected a whole number from 0 to 100,000, got 100000000/);
    expect(accepted((j) => (j.settings.bootstrap.B = MAX_BOOTSTRAP_B))).toBe(true);
  });

  test('seeds are non-negative safe integers', () => {
    expect(refusal((j) => (j.settings.bootstrap.seed = -1))).toMatch(/^settings\.bootstrap\.seed: expected a whole number from 0 to 9,007,199,254,740,991, got -1/);
    expect(refusal((j) => (j.settings.sem2.seed = 0.5))).toMatch(/^settings\.sem2\.seed: .*got 0\.5/);
    expect(refusal((j) => (j.settings.sem2.seed = 2 ** 60))).toMatch(/^settings\.sem2\.seed: .*got 1152921504606847000/);
    expect(accepted((j) => (j.settings.sem2.seed = MAX_SEED))).toBe(true);
  });

  test('Sem2 splits, samples and sampling settings', () => {
    expect(refusal((j) => (j.settings.sem2.R = 1e7))).toMatch(/^settings\.sem2\.R: expected a whole number from 1 to 10,000, got 10000000/);
    expect(refusal((j) => (j.settings.sem2.selection = 1e9))).toMatch(/^settings\.sem2\.selection: expected a whole number from 1 to 100,000, got 1000000000/);
    expect(refusal((j) => (j.settings.samples = 1e9))).toMatch(/^settings\.samples: expected a whole number from 0 to 100,000, got 1000000000/);
    expect(refusal((j) => (j.settings.temperature = 50))).toBe('settings.temperature: expected a number in [0,2], got 50');
    expect(refusal((j) => (j.settings.topP = -1))).toBe('settings.topP: expected a number in [0,1], got -1');
    expect(refusal((j) => (j.models[0].questions[0].n = 1e9))).toMatch(/^models\[0\]\.questions\[0\]\.n: expected a whole number from 1 to 100,000, got 1000000000/);
  });
});

describe('headline numbers are within their mathematical ranges', () => {
  test('accuracy and every calibration metric in [0,1]', () => {
    expect(refusal((j) => (j.models[0].metrics.accuracy = 7))).toBe('models[0].metrics.accuracy: expected a number in [0,1], got 7');
    expect(refusal((j) => (j.models[0].metrics.signals.sem1.ece = -5))).toBe('models[0].metrics.signals.sem1.ece: expected a number in [0,1], got -5');
    for (const key of ['eceEqualMass', 'mce', 'smoothEce', 'auroc', 'aurc', 'meanConfidence']) {
      expect(refusal((j) => (j.models[1].metrics.signals.sem2[key] = 1.5))).toBe(`models[1].metrics.signals.sem2.${key}: expected a number in [0,1], got 1.5`);
    }
  });

  test('Brier score in [0,1], its resolution and uncertainty in [0,1/4]', () => {
    expect(refusal((j) => (j.models[0].metrics.signals.sem1.brier.score = 2))).toBe('models[0].metrics.signals.sem1.brier.score: expected a number in [0,1], got 2');
    expect(refusal((j) => (j.models[0].metrics.signals.sem1.brier.uncertainty = 0.3))).toBe('models[0].metrics.signals.sem1.brier.uncertainty: expected a number in [0,0.25], got 0.3');
    expect(refusal((j) => (j.models[0].metrics.signals.sem1.brier.resolution = -0.1))).toMatch(/^models\[0\]\.metrics\.signals\.sem1\.brier\.resolution: .*got -0\.1/);
  });

  test('intervals: ECEs in [0,1], differences of two in [-1,1]', () => {
    expect(refusal((j) => (j.models[0].metrics.eceIntervals.sem1 = [0.2, 0.1, 3]))).toBe('models[0].metrics.eceIntervals.sem1[2]: expected a number in [0,1], got 3');
    expect(refusal((j) => (j.models[0].metrics.bootstrap.d_ece = [-2, -3, 0]))).toMatch(/^models\[0\]\.metrics\.bootstrap\.d_ece\[0\]: expected a number in \[-1,1\], got -2/);
    expect(accepted((j) => (j.models[0].metrics.bootstrap.d_ece = [-0.5, -0.9, 0.1]))).toBe(true);
  });

  test('the last-bit rounding of a sum is not refused, anything more is', () => {
    expect(accepted((j) => (j.models[0].metrics.signals.sem1.ece = 1 + 1e-15))).toBe(true);
    expect(accepted((j) => (j.models[0].metrics.signals.sem1.ece = 1.001))).toBe(false);
  });

  test('counts are whole, non-negative and consistent', () => {
    expect(refusal((j) => (j.models[0].metrics.questions = 1_000_000))).toBe('models[0].metrics.questions: 1000000 but the report holds 4 question rows');
    expect(accepted((j) => ((j.models[0].questions = []), (j.models[1].questions = [])))).toBe(true);
    expect(refusal((j) => (j.models[0].metrics.questions = -4))).toMatch(/^models\[0\]\.metrics\.questions: expected a whole number from 0 to 1,000,000, got -4/);
    expect(refusal((j) => (j.models[0].metrics.byRegime.jensen.count = 1.5))).toMatch(/^models\[0\]\.metrics\.byRegime\.jensen\.count: .*got 1\.5/);
    expect(refusal((j) => (j.models[0].metrics.byRegime['low-margin'].count = 100))).toBe('models[0].metrics.byRegime: the regimes count 104 questions but questions is 4');
    expect(refusal((j) => (j.models[0].questions[0].nClasses = 7))).toBe('models[0].questions[0].nClasses: 7 classes but only 6 samples (n)');
    expect(refusal((j) => (j.models[0].metrics.signals.sem1.bins[0].count = -1))).toMatch(/^models\[0\]\.metrics\.signals\.sem1\.bins\[0\]\.count: .*got -1/);
  });

  test('lists are bounded', () => {
    expect(refusal((j) => (j.models[0].metrics.signals.sem1.bins = Array.from({ length: MAX_BINS + 1 }, () => j.models[0].metrics.signals.sem1.bins[1])))).toBe(
      'models[0].metrics.signals.sem1.bins: expected at most 1,000 items, got a list of 1001',
    );
  });
});

describe('the dataset a report measured', () => {
  test('a seeded subset is kept, its seed and counts bounded like every other', () => {
    const subset = { of: 12, seed: 1, stratifiedBy: 'category', ids: ['q0', 'q1', 'q2', 'q3'] };
    const r = parseReport(forged((j) => (j.dataset.subset = subset)));
    expect(r.ok && r.value.dataset.subset).toEqual(subset);
    expect(refusal((j) => (j.dataset.subset = { ...subset, seed: -3 }))).toMatch(/^dataset\.subset\.seed: expected a whole number from 0 to .*, got -3/);
    expect(refusal((j) => (j.dataset.subset = { ...subset, of: 1e12 }))).toMatch(/^dataset\.subset\.of: expected a whole number from 0 to 1,000,000, got 1000000000000/);
  });
});

