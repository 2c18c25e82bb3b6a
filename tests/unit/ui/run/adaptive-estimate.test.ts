/**
 * The review step's expected cost of an adaptive run (ui/run/adaptive-estimate.ts): the run's own
 * rule over the planner's simulated families, priced by the same arithmetic as the planner's rows;
 * the maximum stays the cap and equals the estimate table's typical total.
 */
import { describe, expect, test } from 'vitest';
import { ADAPTIVE_FAMILIES, familySpecs } from '../../../../src/core/adaptive-families';
import { adaptiveRule } from '../../../../src/core/adaptive-rule';
import { sampleAdaptively } from '../../../../src/core/adaptive-simulate';
import { defaultRng } from '../../../../src/core/rng';
import { planBudget } from '../../../../src/core/budget-plan';
import { adaptiveCost, adaptiveCostWords, familyExpectations, SIMULATED_QUESTIONS, usdFine } from '../../../../src/ui/run/adaptive-estimate';
import { costFor, unitCosts } from '../../../../src/ui/run/budget-costs';
import { estimateRun } from '../../../../src/ui/run/estimate';
import { RunDraft } from '../../../../src/ui/run/draft.svelte';
import { noHub } from './draft-fixtures';

const PRICES = { 'openai/gpt-4o-mini': { input: 0.15, output: 0.6 }, 'openai/judge': { input: 1, output: 2 } };

function draft(): RunDraft {
  const d = new RunDraft(noHub());
  d.demoCount = 10;
  d.models = [{ uid: 1, preset: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' }];
  d.sampling.n = 50;
  d.adaptive.on = true;
  return d;
}

describe('expected samples of the run’s rule', () => {
  test('none for a fixed-n run; per family, the rule’s own mean, within a run of the rule simulated apart', () => {
    expect(familyExpectations({ n: 50 })).toBeNull();
    const spec = draft().toSpec();
    const e = familyExpectations(spec.sampling)!;
    expect(e.map((x) => x.family)).toEqual(ADAPTIVE_FAMILIES.map((f) => f.id));
    // Remembered: the same rule gives the same object.
    expect(familyExpectations(spec.sampling)).toBe(e);
    const rule = adaptiveRule(50, spec.sampling.adaptive);
    for (const x of e) {
      expect(x.samples.questions).toBe(SIMULATED_QUESTIONS);
      // An independent simulation of the rule on the family, from another stream.
      const rng = defaultRng(4242);
      const drawn = familySpecs(x.family, 3000, rng).map((s) => sampleAdaptively(s, rule, rng).assignments.length);
      const mean = drawn.reduce((a, b) => a + b, 0) / drawn.length;
      expect(Math.abs(x.samples.mean - mean), x.family).toBeLessThan(4 * x.samples.sd * Math.sqrt(1 / SIMULATED_QUESTIONS + 1 / 3000));
      expect(x.samples.mean).toBeLessThan(50);
    }
    // The near-certain mix settles most questions: the fewest samples.
    expect(Math.min(...e.map((x) => x.samples.mean))).toBe(e.find((x) => x.family === 'near-certain-mix')!.samples.mean);
  });

  test('the same samples per question as the budget planner’s adaptive row, for the same rule and family', () => {
    const spec = draft().toSpec();
    for (const x of familyExpectations(spec.sampling)!) {
      const row = planBudget({ budgetSamples: 2000, maxSamples: 50, source: { family: x.family }, rule: spec.sampling.adaptive, replicates: 2 }).at(-1)!;
      expect(row.samplesPerQuestion, x.family).toBe(x.samples.mean);
    }
  });

  test('the rule’s settings move the expectation: a larger settled block spends more', () => {
    const d = draft();
    const base = familyExpectations(d.toSpec().sampling)!;
    d.adaptive.settings.settledHeldOut = 40;
    const more = familyExpectations(d.toSpec().sampling)!;
    for (let i = 0; i < base.length; i++) expect(more[i].samples.mean, base[i].family).toBeGreaterThan(base[i].samples.mean);
  });
});

describe('expected cost beside the maximum', () => {
  test('the maximum is the estimate table’s typical total; the expectation the planner’s arithmetic at the expected samples', () => {
    const d = draft();
    d.gradingMethod = 'judge';
    d.gradingJudge = { uid: 2, preset: 'openai', model: 'judge', baseUrl: 'https://api.openai.com/v1' };
    const spec = d.toSpec();
    const e = familyExpectations(spec.sampling)!;
    const c = adaptiveCost(spec, PRICES, e, 'easy-hard-mix');
    expect(c.atMost).toBeCloseTo(estimateRun(spec, PRICES).total.cost.typical!, 12);
    const assumed = e.find((x) => x.family === 'easy-hard-mix')!;
    expect(c.assumed).toBe(assumed);
    expect(c.expected).toBeCloseTo(costFor(10, assumed.samples.mean, unitCosts(spec, PRICES))!, 15);
    expect(c.expected!).toBeLessThan(c.atMost!);
    // The judge is paid per question whatever the samples: the expectation keeps it whole.
    const judgeOnly = unitCosts(spec, PRICES).perQuestion! * 10;
    expect(c.expected! - judgeOnly).toBeCloseTo(unitCosts(spec, PRICES).perSample! * 10 * assumed.samples.mean, 12);
    expect(c.fewest.family.samples.mean).toBeLessThanOrEqual(c.assumed.samples.mean);
    expect(c.most.family.samples.mean).toBeGreaterThanOrEqual(c.assumed.samples.mean);
    // Another family assumed, another expectation.
    expect(adaptiveCost(spec, PRICES, e, 'near-certain-mix').expected!).toBeLessThan(c.expected!);
    const words = adaptiveCostWords(c);
    expect(words.startsWith(`Expected ≈ ${usdFine(c.expected!)} (${usdFine(c.atMost!)} at the maximum, typical replies): about ${c.assumed.samples.mean.toFixed(1)} samples per question of at most 50, if the questions are like “half easy`)).toBe(true);
    expect(words).toContain(`${usdFine(c.fewest.cost!)} to ${usdFine(c.most.cost!)}.`);
    expect([usdFine(0), usdFine(0.0123), usdFine(0.000456), usdFine(12.345)]).toEqual(['$0', '$0.01', '$0.00046', '$12.35']);
  });

  test('no price: samples only, the cost unknown; local models: nothing paid', () => {
    const d = draft();
    const e = familyExpectations(d.toSpec().sampling)!;
    const unpriced = adaptiveCost(d.toSpec(), {}, e, 'easy-hard-mix');
    expect(unpriced.expected).toBeNull();
    expect(adaptiveCostWords(unpriced)).toMatch(/^Expected: about .* the cost is unknown \(a model has no price\)\.$/);
    d.models = [{ uid: 1, preset: 'ollama', model: 'llama3', baseUrl: 'http://127.0.0.1:11434/v1' }];
    const local = adaptiveCost(d.toSpec(), { 'ollama/': { input: 0, output: 0 } }, e, 'easy-hard-mix');
    expect(local.local).toBe(true);
    expect(adaptiveCostWords(local)).toMatch(/nothing is paid per token \(local models\)\.$/);
  });
});
