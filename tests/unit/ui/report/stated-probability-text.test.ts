import { describe, expect, test } from 'vitest';
import type { McBaselineSection } from '../../../../src/model/report';
import { accuracySentence, brierSentence, failureSentence, optionRange } from '../../../../src/ui/report/stated-probability-text';
import { brierBars, brierDomainMax } from '../../../../src/ui/charts/brier-bars-data';

function section(over: Partial<McBaselineSection> = {}): McBaselineSection {
  return {
    kind: 'confidencebench',
    runs: 3,
    options: [4, 4],
    brier: { mean: 0.41 / 3, sd: 0.058381, perRun: [0.2, 0.125, 0.085] },
    baselineBrier: 0.1875,
    accuracy: { mean: 2 / 3, sd: Math.sqrt(1 / 12), perRun: [0.5, 1, 0.5] },
    byCategory: [],
    failures: { unparsable: 0, refusals: 0, requestFailed: 0, total: 0, perRun: [0, 0, 0] },
    ...over,
  };
}

describe('stated-probability sentences', () => {
  test('Brier mean ± SD against the uniform line, in words', () => {
    expect(brierSentence(section())).toBe(
      'Over 3 runs of 2 questions (4 options), the Brier score of the stated probability is 0.137 ± 0.058 (sample SD across runs). ' +
        'Always guessing uniformly would score 0.1875 on these questions, 0.051 better than that. Lower is better.',
    );
    expect(brierSentence(section({ runs: 1, brier: { mean: 0.25, sd: NaN, perRun: [0.25] }, options: [2, 4] }))).toContain(
      '(2 to 4 options), the Brier score of the stated probability is 0.250 (one run: no spread across runs). Always guessing uniformly would score 0.1875 on these questions, 0.063 worse than that.',
    );
    expect(optionRange([])).toBe('no questions');
  });

  test('accuracy and fallbacks', () => {
    expect(accuracySentence(section())).toBe('Accuracy of the chosen option: 66.7% ± 28.9%.');
    expect(failureSentence(section())).toBe('Every one of the 6 replies was read: none was scored as a uniform guess.');
    expect(failureSentence(section({ failures: { unparsable: 2, refusals: 1, requestFailed: 0, total: 3, perRun: [1, 1, 1] } }))).toBe(
      '3 of 6 replies were scored as uniform guesses (a random option at probability 1/k, as ConfidenceBench does, rather than dropped): 2 unparsable replies, 1 refusal.',
    );
  });
});

describe('Brier bars', () => {
  test('one bar per run and the mean with its SD; the axis leaves room for the whisker and the line', () => {
    const bars = brierBars(section().brier);
    expect(bars.map((b) => b.key)).toEqual(['run-1', 'run-2', 'run-3', 'mean']);
    expect(bars[3]).toMatchObject({ mean: true, sd: 0.058381 });
    // Run 1 (0.2) is above mean + SD (0.195) and the line (0.1875).
    expect(brierDomainMax(bars, 0.1875)).toBeCloseTo(0.2 * 1.1, 12);
    expect(brierDomainMax(brierBars({ mean: 0.15, sd: 0.1, perRun: [0.1, 0.2] }), 0.1875)).toBeCloseTo(0.25 * 1.1, 12);
    expect(brierDomainMax(brierBars({ mean: NaN, sd: NaN, perRun: [NaN] }), 0.25)).toBeCloseTo(0.275, 12);
  });
});
