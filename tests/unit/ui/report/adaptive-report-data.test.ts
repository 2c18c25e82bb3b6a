/**
 * What the report shows of an adaptive run: the samples spent per question (histogram bars, the
 * samples saved against fixed n and their cost at a price), and each question's rounds, replayed
 * from its answers or laid out from the rule, its selection block and n.
 */
import { describe, expect, test } from 'vitest';
import { adaptiveSpend, MAX_BARS, savedCost, spendBars, spendPrice } from '../../../../src/ui/report/adaptive-spend';
import { layOutRounds, questionRounds } from '../../../../src/ui/report/adaptive-rounds';
import { adaptiveRule, planAdaptive } from '../../../../src/core/adaptive-rule';
import type { ReportSample } from '../../../../src/model/report';

describe('samples spent', () => {
  test('used, fixed, saved and the questions at the maximum', () => {
    const s = adaptiveSpend([20, 20, 50, 35, 20], 50);
    expect(s).toMatchObject({ questions: 5, used: 145, fixed: 250, saved: 105, atMax: 1, mean: 29 });
    expect(s.savedShare).toBeCloseTo(0.42, 12);
    expect(adaptiveSpend([], 50)).toMatchObject({ questions: 0, used: 0, fixed: 0, saved: 0, savedShare: 0 });
  });

  test('one bar per count up to the maximum, empty ones kept; wider bins past MAX_BARS counts', () => {
    const bars = spendBars([2, 2, 5], 5);
    expect(bars).toEqual([
      { lo: 1, hi: 1, count: 0 },
      { lo: 2, hi: 2, count: 2 },
      { lo: 3, hi: 3, count: 0 },
      { lo: 4, hi: 4, count: 0 },
      { lo: 5, hi: 5, count: 1 },
    ]);
    const wide = spendBars([1, 2, 3, 200], 200);
    expect(wide.length).toBeLessThanOrEqual(MAX_BARS);
    expect(wide[0]).toEqual({ lo: 1, hi: 4, count: 3 });
    expect(wide.at(-1)).toEqual({ lo: 197, hi: 200, count: 1 });
    expect(wide.reduce((n, b) => n + b.count, 0)).toBe(4);
  });

  test('the saved samples priced as typical replies with their prompt', () => {
    // 1,000 samples × (60 output tokens at $0.60/M + 25 input tokens at $0.15/M).
    expect(savedCost(1000, { input: 0.15, output: 0.6 }, { maxTokens: 512 }, 100)).toBeCloseTo((1000 * 60 * 0.6 + 1000 * 25 * 0.15) / 1e6, 15);
    // A token limit under 60 caps the reply.
    expect(savedCost(1000, { input: 0, output: 1 }, { maxTokens: 16 }, 0)).toBeCloseTo(0.016, 15);
    expect(savedCost(1000, null, {}, 0)).toBeNull();
  });

  test('the saving is priced at the price the run recorded, else at the default table’s, and says which', () => {
    const recorded = { input: 1, output: 2 };
    // The run's own price wins over the default table's for the same model.
    expect(spendPrice({ model: 'openai/gpt-4o-mini', provider: 'openai', price: recorded })).toEqual({ price: recorded, source: 'run' });
    expect(spendPrice({ model: 'openai/gpt-4o-mini', provider: 'openai' })).toEqual({ price: { input: 0.15, output: 0.6 }, source: 'default' });
    // An older report's label without a provider: the preset is read off the label.
    expect(spendPrice({ model: 'anthropic/claude-sonnet-4-x' }, { 'anthropic/claude-sonnet-4': { input: 3, output: 15 } })).toEqual({ price: { input: 3, output: 15 }, source: 'default' });
    expect(spendPrice({ model: 'openai/unknown' }, {})).toEqual({ price: null, source: 'default' });
  });
});

const sample = (answer: string): ReportSample => ({ answer, confidence: null, cls: 0 });

describe('a question’s rounds', () => {
  // A rule of its own, so the rounds below do not move when the defaults are tuned.
  const settings = { samples: 30, adaptive: { firstRound: 5, roundSize: 5, maxSelection: 10, agreement: 1, settledHeldOut: 15 } };

  test('laid out from the rule: the first round, later rounds, then the held-out block', () => {
    expect(layOutRounds(10, 25, { firstRound: 5, roundSize: 5 })).toEqual([
      { phase: 'selection', start: 0, size: 5 },
      { phase: 'selection', start: 5, size: 5 },
      { phase: 'held-out', start: 10, size: 15 },
    ]);
    expect(layOutRounds(7, 30, { firstRound: 5, roundSize: 4 }).map((r) => r.size)).toEqual([5, 2, 23]);
  });

  test('replayed from the answers: the rule’s own rounds, each round’s answers and the selection’s agreement', () => {
    // The first round splits: the rule ends the selection there and holds out every remaining slot.
    const answers = ['Paris', 'Paris', 'Lyon', 'Paris', 'paris', ...Array.from({ length: 25 }, (_, i) => (i % 5 === 0 ? 'Lyon' : 'Paris'))];
    const plan = planAdaptive(answers.map((a) => a.toLowerCase()), adaptiveRule(30, settings.adaptive));
    expect(plan.next).toEqual({ phase: 'done' });
    const n = plan.selection + plan.heldOut;
    const got = questionRounds({ n, selectionSamples: plan.selection, samples: answers.slice(0, n).map(sample) }, settings)!;
    expect(got.source).toBe('replayed');
    expect(got.rounds.map((r) => [r.phase, r.first, r.last])).toEqual(plan.rounds.map((r) => [r.phase, r.start + 1, r.start + r.size]));
    expect(got.rounds[0].answers).toEqual([
      { answer: 'Paris', count: 4 },
      { answer: 'Lyon', count: 1 },
    ]);
    expect(got.rounds[0].agreement).toBeCloseTo(0.8, 12);
    expect(got.rounds.at(-1)!.agreement).toBeUndefined();
    expect(got.heldOut).toBe(n - plan.selection);
  });

  test('without the answers, or with answers that do not replay to the recorded block: laid out', () => {
    const laid = questionRounds({ n: 25, selectionSamples: 10 }, settings)!;
    expect(laid.source).toBe('laid-out');
    expect(laid.rounds.map((r) => [r.phase, r.first, r.last])).toEqual([
      ['selection', 1, 5],
      ['selection', 6, 10],
      ['held-out', 11, 25],
    ]);
    expect(laid.rounds[0].answers).toBeUndefined();
    // Every answer agrees, so the rule would settle at 10 with 15 held out; the record says 5 and 20.
    const mismatch = questionRounds({ n: 25, selectionSamples: 5, samples: Array.from({ length: 25 }, () => sample('Rome')) }, settings)!;
    expect(mismatch.source).toBe('laid-out');
    expect(mismatch.rounds.map((r) => r.size)).toEqual([5, 20]);
    // Its answers are still tallied per round.
    expect(mismatch.rounds[1].answers).toEqual([{ answer: 'Rome', count: 20 }]);
  });

  test('a fixed-n question, or a report without the rule, has no rounds', () => {
    expect(questionRounds({ n: 20 }, settings)).toBeUndefined();
    expect(questionRounds({ n: 20, selectionSamples: 5 }, { samples: 20 })).toBeUndefined();
  });
});

describe('first rounds for planning the next run', () => {
  test('the selection block of an adaptive question, the first round of a fixed one, as the rule’s keys; questions without answers left out', async () => {
    const { firstRoundsOf } = await import('../../../../src/ui/report/first-rounds');
    const q = (answers: string[], selectionSamples?: number) => ({ samples: answers.map(sample), ...(selectionSamples ? { selectionSamples } : {}) });
    expect(firstRoundsOf([q(['Paris', ' paris.', 'Lyon', 'x', 'y', 'z'], 2), q(['Rome', 'Rome', 'Milan', 'Rome']), { samples: undefined }], 3)).toEqual([
      ['paris', 'paris'],
      ['rome', 'rome', 'milan'],
    ]);
  });
});
