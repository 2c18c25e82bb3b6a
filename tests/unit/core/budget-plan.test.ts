import { describe, expect, test } from 'vitest';
import { adaptiveRule } from '../../../src/core/adaptive-rule';
import { familySpecs } from '../../../src/core/adaptive-families';
import { sampleAdaptively, simulateAdaptiveRun, simulateFixedRun } from '../../../src/core/adaptive-simulate';
import { budgetPlanProblems, planBudget, type BudgetOption } from '../../../src/core/budget-plan';
import { eceInference } from '../../../src/core/ece-inference';
import { defaultRng } from '../../../src/core/rng';

/** The half-width of the headline interval of one independently simulated run of the option. */
function simulatedHalfWidth(option: BudgetOption, family: 'easy-hard-mix' | 'near-certain-mix', seed: number): number {
  const rng = defaultRng(seed);
  const specs = familySpecs(family, option.questions, rng);
  const run = option.kind === 'fixed' ? simulateFixedRun(specs, option.n, rng) : simulateAdaptiveRun(specs, adaptiveRule(option.n), rng);
  const [lo, hi] = eceInference(run.sem2, run.y).interval;
  return (hi - lo) / 2;
}

describe('planBudget', () => {
  test('simulated runs fall within each option\'s stated range (a 90% prediction interval) and around its prediction (seeded)', () => {
    const options = planBudget({ budgetSamples: 20_000, maxSamples: 50, source: { family: 'easy-hard-mix' }, seed: 3 });
    expect(options.map((o) => [o.kind, o.n])).toEqual([['fixed', 10], ['fixed', 20], ['fixed', 50], ['adaptive', 50]]);
    expect(options.slice(0, 3).map((o) => o.questions)).toEqual([2000, 1000, 400]);
    let inside = 0;
    const logRatios: number[] = [];
    for (const [i, option] of options.entries()) {
      const [lo, hi] = option.halfWidthRange;
      expect(lo).toBeLessThan(option.halfWidth);
      expect(hi).toBeGreaterThan(option.halfWidth);
      for (let r = 0; r < 5; r++) {
        const actual = simulatedHalfWidth(option, 'easy-hard-mix', 9100 + 10 * i + r);
        if (actual >= lo && actual <= hi) inside++;
        logRatios.push(Math.log(actual / option.halfWidth));
      }
    }
    // 20 runs, each inside with probability 0.9: fewer than 15 inside has probability about 4%.
    expect(inside).toBeGreaterThanOrEqual(15);
    // The prediction is not off on average by more than about 25% (at 400 questions one run's
    // half-width varies by ±30%, so a median of 19 runs and a mean of 20 are each good to ~10%).
    expect(Math.abs(logRatios.reduce((a, b) => a + b, 0) / logRatios.length)).toBeLessThan(0.25);
    // More questions narrow the interval more than more samples per question do.
    expect(options[0].halfWidth).toBeLessThan(options[2].halfWidth);
  }, 60_000);

  test('a plan larger than simulateAtMost is scaled by √(simulated / planned) and still holds a full-size run', () => {
    const [option] = planBudget({ budgetSamples: 30_000, maxSamples: 10, source: { family: 'near-certain-mix' }, simulateAtMost: 750, seed: 4 });
    expect(option.questions).toBe(3000);
    const actual = simulatedHalfWidth(option, 'near-certain-mix', 77);
    expect(actual).toBeGreaterThanOrEqual(option.halfWidthRange[0]);
    expect(actual).toBeLessThanOrEqual(option.halfWidthRange[1]);
  }, 60_000);

  test('the adaptive option spends what a run of the rule spends (samples per question within 3 s.e.)', () => {
    const options = planBudget({ budgetSamples: 50_000, maxSamples: 50, source: { family: 'near-certain-mix' }, replicates: 2, seed: 5 });
    const adaptive = options.at(-1)!;
    const rng = defaultRng(31);
    const drawn = familySpecs('near-certain-mix', 2000, rng).map((s) => sampleAdaptively(s, adaptiveRule(50), rng).assignments.length);
    const m = drawn.reduce((a, b) => a + b, 0) / drawn.length;
    expect(Math.abs(adaptive.samplesPerQuestion - m)).toBeLessThan(3 * adaptive.samplesSd * Math.sqrt(1 / 2000 + 1 / 2000));
    expect(adaptive.questions).toBe(Math.floor(50_000 / adaptive.samplesPerQuestion));
    expect(adaptive.samples).toBeLessThanOrEqual(50_000);
  }, 60_000);

  test('first rounds as the source: questions whose rounds agree make adaptive cheaper', () => {
    const agreeing = Array.from({ length: 40 }, () => ['x', 'x', 'x', 'x', 'x']);
    const split = Array.from({ length: 40 }, () => ['x', 'y', 'z', 'x', 'y']);
    const plan = (rounds: string[][]) => planBudget({ budgetSamples: 10_000, maxSamples: 50, source: { firstRounds: rounds }, replicates: 2 }).at(-1)!;
    const easy = plan(agreeing);
    const hard = plan(split);
    expect(easy.samplesPerQuestion).toBeLessThan(hard.samplesPerQuestion);
    expect(hard.samplesPerQuestion).toBeGreaterThan(45);
    expect(easy.questions).toBeGreaterThan(hard.questions);
  }, 60_000);

  test('questionsAvailable caps the questions; a budget below one question gives none and NaN widths; same input, same plan', () => {
    const capped = planBudget({ budgetSamples: 100_000, maxSamples: 20, source: { family: 'easy-hard-mix' }, questionsAvailable: 300, replicates: 2 });
    expect(capped.map((o) => o.n)).toEqual([10, 20, 20]);
    expect(capped.map((o) => o.questions)).toEqual([300, 300, 300]);
    const tiny = planBudget({ budgetSamples: 15, maxSamples: 50, source: { family: 'easy-hard-mix' }, replicates: 2 });
    expect(tiny.map((o) => o.questions)).toEqual([1, 0, 0, 0]);
    expect(tiny[1].halfWidth).toBeNaN();
    const input = { budgetSamples: 5000, maxSamples: 50, source: { family: 'two-leading-mixed' as const }, replicates: 2, seed: 8 };
    expect(planBudget(input)).toEqual(planBudget(input));
  }, 60_000);

  test('problems in words', () => {
    expect(budgetPlanProblems({ budgetSamples: -1, maxSamples: 1, source: { firstRounds: [[]] }, questionsAvailable: 2.5 })).toEqual([
      'the budget must be a number of samples, at least 0, got -1',
      'the most samples per question must be an integer of at least 2, got 1',
      'the questions available must be a whole number, got 2.5',
      'the first rounds hold no answers',
    ]);
    expect(() => planBudget({ budgetSamples: NaN, maxSamples: 50, source: { family: 'easy-hard-mix' } })).toThrow(RangeError);
  });
});
