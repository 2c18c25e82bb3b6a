/**
 * The budget planner's dollars: the run's own cost per sample and per question from its estimate,
 * the questions a dollar budget buys at each option's samples per question (the predicted
 * half-width moved by √(planned / bought)), and the trade-off sentence.
 */
import { describe, expect, test } from 'vitest';
import { questionsForDollars, unitCosts } from '../../../../src/ui/run/budget-costs';
import { budgetSamples, planRows, planSentence } from '../../../../src/ui/run/budget-view';
import { estimateRun } from '../../../../src/ui/run/estimate';
import { RunDraft } from '../../../../src/ui/run/draft.svelte';
import type { BudgetOption } from '../../../../src/core/budget-plan';
import { noHub } from './draft-fixtures';

const PRICES = { 'openai/gpt-4o-mini': { input: 0.15, output: 0.6 }, 'openai/judge': { input: 1, output: 2 } };

function draft(): RunDraft {
  const d = new RunDraft(noHub());
  d.demoCount = 10;
  d.models = [{ uid: 1, preset: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' }];
  d.sampling.n = 20;
  return d;
}

describe('unit costs from the run’s estimate', () => {
  test('the sampling rows over the sample slots; the judges per question', () => {
    const d = draft();
    const spec = d.toSpec();
    const { rows } = estimateRun(spec, PRICES);
    const costs = unitCosts(spec, PRICES);
    expect(costs.perSample! * 10 * 20).toBeCloseTo(rows[0].cost.typical!, 12);
    expect(costs.perQuestion).toBe(0);
    // A grading judge is paid once per question, whatever n.
    d.gradingMethod = 'judge';
    d.gradingJudge = { uid: 2, preset: 'openai', model: 'judge', baseUrl: 'https://api.openai.com/v1' };
    const judged = unitCosts(d.toSpec(), PRICES);
    expect(judged.perSample).toBeCloseTo(costs.perSample!, 15);
    const judgeRow = estimateRun(d.toSpec(), PRICES).rows.find((r) => r.label.startsWith('grading judge'))!;
    expect(judged.perQuestion! * 10).toBeCloseTo(judgeRow.cost.typical!, 12);
    // No price: no dollars.
    expect(unitCosts(spec, {}).perSample).toBeNull();
  });

  test('questions a dollar budget buys', () => {
    expect(questionsForDollars(10, 50, { perSample: 0.001, perQuestion: 0, local: false })).toBe(200);
    expect(questionsForDollars(10, 50, { perSample: 0.001, perQuestion: 0.05, local: false })).toBe(100);
    expect(questionsForDollars(10, 50, { perSample: 0, perQuestion: 0, local: true })).toBeNull();
    expect(questionsForDollars(10, 50, { perSample: null, perQuestion: 0, local: false })).toBeNull();
  });
});

const OPTIONS: BudgetOption[] = [
  { kind: 'fixed', n: 10, samplesPerQuestion: 10, samplesSd: 0, questions: 4000, samples: 40000, halfWidth: 0.012, halfWidthRange: [0.01, 0.014], ece: 0.07 },
  { kind: 'fixed', n: 50, samplesPerQuestion: 50, samplesSd: 0, questions: 800, samples: 40000, halfWidth: 0.027, halfWidthRange: [0.017, 0.037], ece: 0.04 },
  { kind: 'adaptive', n: 50, samplesPerQuestion: 40, samplesSd: 12, questions: 1000, samples: 40000, halfWidth: 0.024, halfWidthRange: [0.02, 0.028], ece: 0.04 },
];

describe('rows and sentence', () => {
  test('a budget in samples: the planner’s rows, priced where the prices are known', () => {
    const rows = planRows(OPTIONS, { kind: 'samples', amount: 40000 }, { perSample: 0.001, perQuestion: 0, local: false });
    expect(rows.map((r) => [r.key, r.questions, r.samples, r.cost])).toEqual([
      ['fixed-10', 4000, 40000, 40],
      ['fixed-50', 800, 40000, 40],
      ['adaptive', 1000, 40000, 40],
    ]);
    expect(planSentence(rows, { kind: 'samples', amount: 40000 })).toBe('With 40,000 samples: 800 questions × 50, or 1,000 questions adaptive; Sem2-ECE interval ±0.027 vs ±0.024.');
    expect(budgetSamples({ kind: 'samples', amount: 123 }, null)).toBe(123);
  });

  test('a budget in dollars with a cost per question: fewer questions, the half-width widened by √(planned / bought)', () => {
    const costs = { perSample: 0.001, perQuestion: 0.01, local: false };
    expect(budgetSamples({ kind: 'dollars', amount: 40 }, costs)).toBeCloseTo(40000, 9);
    const rows = planRows(OPTIONS, { kind: 'dollars', amount: 40 }, costs);
    // $40 / (50 × $0.001 + $0.01) = 666 questions at n = 50.
    const fixed = rows.find((r) => r.key === 'fixed-50')!;
    expect(fixed.questions).toBe(666);
    expect(fixed.halfWidth).toBeCloseTo(0.027 * Math.sqrt(800 / 666), 12);
    expect(fixed.halfWidthRange[1]).toBeCloseTo(0.037 * Math.sqrt(800 / 666), 12);
    expect(fixed.cost!).toBeLessThanOrEqual(40);
    expect(planSentence(rows, { kind: 'dollars', amount: 40 })).toMatch(/^With \$40: 666 questions × 50, or 800 questions adaptive; Sem2-ECE interval ±0\.030 vs ±0\.027\.$/);
  });

  test('the data set’s questions cap every option', () => {
    const rows = planRows(OPTIONS, { kind: 'dollars', amount: 40 }, { perSample: 0.001, perQuestion: 0, local: false }, 500);
    expect(rows.every((r) => r.questions === 500 && r.capped)).toBe(true);
  });
});
