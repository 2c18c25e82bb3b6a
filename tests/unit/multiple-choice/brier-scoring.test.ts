import { describe, expect, test } from 'vitest';
import { toMcQuestion, type McQuestion } from '../../../src/multiple-choice/prompt';
import { mcOutcome } from '../../../src/multiple-choice/outcome';
import { fnv1a32, uniformGuess } from '../../../src/multiple-choice/uniform-guess';
import { mcRunScores } from '../../../src/multiple-choice/brier-scoring';
import { spread, summarizeMcRuns } from '../../../src/multiple-choice/runs-summary';
import { uniformBaselineBrier, uniformGuessBrier } from '../../../src/core/brier-baseline';

function mcq(id: string, answer: string, k: number, category?: string): McQuestion {
  const r = toMcQuestion({ id, question: `question ${id}`, answer, options: Array.from({ length: k }, (_, i) => `option ${i}`), category });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('uniform baseline', () => {
  test('ConfidenceBench reference: 0.1875 for 4 options, (k-1)/k² in general', () => {
    expect(uniformGuessBrier(4)).toBe(0.1875);
    // (1/4)(3/4)² + (3/4)(1/4)² by hand
    expect(uniformGuessBrier(4)).toBeCloseTo(0.25 * 0.75 ** 2 + 0.75 * 0.25 ** 2, 15);
    expect(uniformGuessBrier(2)).toBe(0.25);
    expect(uniformGuessBrier(10)).toBeCloseTo(0.09, 15);
  });
  test('mixed option counts: mean of per-question values', () => {
    expect(uniformBaselineBrier([4, 4, 4, 2])).toBe(0.203125);
    expect(Number.isNaN(uniformBaselineBrier([]))).toBe(true);
  });
  test('a simulated uniform guesser scores the baseline on average', () => {
    const questions = Array.from({ length: 4000 }, (_, i) => mcq(`s${i}`, 'A', i % 2 ? 4 : 3));
    const outcomes = questions.map((q) => mcOutcome(q, 'no reply I can read', 11));
    const s = mcRunScores(outcomes);
    // Brier of the guess: (1/k − o)²; its expectation is the baseline; 4000 draws ⇒ SE ≈ 0.0014.
    expect(Math.abs(s.brier - s.baseline)).toBeLessThan(0.006);
    expect(s.fallbacks).toBe(4000);
  });
});

describe('one run: Brier, accuracy, categories, fallbacks', () => {
  test('hand-computed example', () => {
    const qs = [mcq('q1', 'A', 4, 'math'), mcq('q2', 'B', 4, 'math'), mcq('q3', 'D', 4, 'words'), mcq('q4', 'A', 2, 'words')];
    const replies = ['{"answer":"A","probability":80}', '{"answer":"C","probability":60}', '{"answer":"D","probability":100}', '{"answer":"B","probability":50}'];
    const s = mcRunScores(qs.map((q, i) => mcOutcome(q, replies[i], 0)));
    // (0.2² + 0.6² + 0² + 0.5²) / 4 = (0.04 + 0.36 + 0 + 0.25) / 4
    expect(s.brier).toBeCloseTo(0.1625, 15);
    expect(s.baseline).toBe(0.203125); // (3 · 0.1875 + 0.25) / 4
    expect(s.accuracy).toBe(0.5);
    expect(s.fallbacks).toBe(0);
    expect(s.byCategory.math.brier).toBeCloseTo(0.2, 15); // (0.04 + 0.36) / 2
    expect(s.byCategory.math.baseline).toBe(0.1875);
    expect(s.byCategory.words.brier).toBeCloseTo(0.125, 15); // (0 + 0.25) / 2
    expect(s.byCategory.words.baseline).toBeCloseTo((0.1875 + 0.25) / 2, 15);
    expect(s.byCategory.words.accuracy).toBe(0.5);
  });

  test('unparsable, refusing and failed replies count as the uniform guess, counted by reason', () => {
    const qs = [mcq('q1', 'A', 4), mcq('q2', 'C', 4), mcq('q3', 'B', 4), mcq('q4', 'A', 4)];
    const out = [
      mcOutcome(qs[0], 'gibberish', 0),
      mcOutcome(qs[1], "I cannot answer this.", 0),
      mcOutcome(qs[2], null, 0),
      mcOutcome(qs[3], '{"answer":"A","probability":90}', 0),
    ];
    for (const o of out.slice(0, 3)) {
      expect(o.probability).toBe(0.25);
      expect(o.method).toBe('uniform-fallback');
      expect(o.correct).toBe(o.choice === o.gold ? 1 : 0);
    }
    const s = mcRunScores(out);
    expect(s.fallbacks).toBe(3);
    expect(s.fallbackReasons).toEqual({ 'no-answer': 1, refusal: 1, 'request-failed': 1 });
    const expected = (out.slice(0, 3).reduce((t, o) => t + (0.25 - o.correct) ** 2, 0) + 0.01) / 4;
    expect(s.brier).toBeCloseTo(expected, 15);
  });

  test('the fallback letter is numpy default_rng(runSeed·2^32 + fnv1a32(id)).integers(0, k)', () => {
    // Reference values computed with numpy 2.4 (np.random.default_rng(seed).integers(0, k)).
    expect(fnv1a32('q1')).toBe(2622263703);
    expect(fnv1a32('vraag-é')).toBe(3552021643);
    expect(uniformGuess(0, 'q1', 4).index).toBe(2);
    expect(uniformGuess(2, 'q1', 4).index).toBe(1);
    expect(uniformGuess(7, 'vraag-é', 10).index).toBe(4);
    expect(uniformGuess(3, 'x', 2)).toEqual({ index: 0, probability: 0.5 });
    // Reproducible: same seed and id, same letter.
    expect(mcOutcome(mcq('q1', 'A', 4), '', 5).choice).toBe(mcOutcome(mcq('q1', 'A', 4), 'junk', 5).choice);
  });
});

describe('repeated runs', () => {
  test('mean and sample SD (ddof = 1) across runs', () => {
    // numpy: np.array([0.1625, 0.2, 0.13]).std(ddof=1) = 0.03502974926163951
    const s = spread([0.1625, 0.2, 0.13]);
    expect(s.mean).toBeCloseTo(0.16416666666666668, 15);
    expect(s.sd).toBeCloseTo(0.03502974926163951, 15);
    expect(Number.isNaN(spread([0.2]).sd)).toBe(true);
  });
  test('summary over three runs of the same questions', () => {
    const qs = [mcq('q1', 'A', 4, 'c1'), mcq('q2', 'B', 4, 'c2')];
    const runs = [
      ['{"answer":"A","probability":80}', '{"answer":"B","probability":60}'],
      ['{"answer":"A","probability":100}', '{"answer":"C","probability":60}'],
      ['{"answer":"B","probability":50}', 'nothing'],
    ].map((replies, r) => mcRunScores(qs.map((q, i) => mcOutcome(q, replies[i], r))));
    const summary = summarizeMcRuns(runs);
    expect(summary.runs).toBe(3);
    expect(summary.brier.runs[0]).toBeCloseTo((0.04 + 0.16) / 2, 15);
    expect(summary.brier.runs[1]).toBeCloseTo((0 + 0.36) / 2, 15);
    expect(summary.baseline).toBe(0.1875);
    expect(summary.fallbacks).toMatchObject({ total: 1, perRun: [0, 0, 1] });
    expect(summary.byCategory.c1.brier.runs).toEqual([runs[0].byCategory.c1.brier, runs[1].byCategory.c1.brier, runs[2].byCategory.c1.brier]);
    const b = summary.brier.runs;
    const m = (b[0] + b[1] + b[2]) / 3;
    expect(summary.brier.mean).toBeCloseTo(m, 15);
    expect(summary.brier.sd).toBeCloseTo(Math.sqrt(((b[0] - m) ** 2 + (b[1] - m) ** 2 + (b[2] - m) ** 2) / 2), 15);
  });
});
