import { describe, expect, test } from 'vitest';
import { mcBaselineSection } from '../../../src/multiple-choice/report-section';
import { mcOutcome } from '../../../src/multiple-choice/outcome';
import { mcRunScores } from '../../../src/multiple-choice/brier-scoring';
import { summarizeMcRuns } from '../../../src/multiple-choice/runs-summary';
import type { McQuestion } from '../../../src/multiple-choice/prompt';
import type { McRow } from '../../../src/multiple-choice/stated-probability-run';

const LETTERS = ['A', 'B', 'C', 'D'];
const Q: McQuestion[] = [
  { id: 'q1', question: 'one?', options: ['a', 'b', 'c', 'd'], letters: LETTERS, gold: 0, category: 'x' },
  { id: 'q2', question: 'two?', options: ['a', 'b', 'c', 'd'], letters: LETTERS, gold: 1, category: 'y' },
];

/** The rows runMcBaseline would return for these replies (replies[run][question]; null: request failed). */
function rowsOf(replies: (string | null)[][]): McRow[] {
  return replies.flatMap((perQ, run) =>
    perQ.map((raw, i) => ({ ...mcOutcome(Q[i], raw, run), run, seed: run, raw, logprob: null })),
  );
}

function section(replies: (string | null)[][]) {
  const rows = rowsOf(replies);
  const perRun = replies.map((_, r) => mcRunScores(rows.filter((row) => row.run === r)));
  return mcBaselineSection({ rows, summary: summarizeMcRuns(perRun) });
}

const json = (answer: string, p: number) => JSON.stringify({ answer, probability: p });

describe('mcBaselineSection', () => {
  test('hand-computed: Brier per run, mean ± sample SD over 3 runs, baseline 0.1875, accuracy, categories', () => {
    const s = section([
      [json('A', 80), json('C', 60)], // (0.8−1)² = 0.04, (0.6−0)² = 0.36 → 0.2; accuracy 0.5
      [json('A', 100), json('B', 50)], // 0, 0.25 → 0.125; accuracy 1
      [json('B', 40), json('B', 90)], // 0.16, 0.01 → 0.085; accuracy 0.5
    ]);
    expect(s.kind).toBe('confidencebench');
    expect(s.runs).toBe(3);
    expect(s.options).toEqual([4, 4]);
    expect(s.baselineBrier).toBe(0.1875);
    s.brier.perRun.forEach((v, i) => expect(v).toBeCloseTo([0.2, 0.125, 0.085][i], 15));
    expect(s.brier.mean).toBeCloseTo(0.41 / 3, 15);
    // Σ(x − x̄)² = 0.0040111… + 0.0001361… + 0.0026694… = 0.0068166…; /(3 − 1), square root.
    expect(s.brier.sd).toBeCloseTo(0.058381, 6);
    expect(s.accuracy.perRun).toEqual([0.5, 1, 0.5]);
    expect(s.accuracy.mean).toBeCloseTo(2 / 3, 15);
    expect(s.accuracy.sd).toBeCloseTo(Math.sqrt(1 / 12), 12);
    // q1 over runs: 0.04, 0, 0.16 → mean 0.2/3; accuracy 2/3. q2: 0.36, 0.25, 0.01 → 0.62/3; accuracy 2/3.
    expect(s.byCategory.map((c) => c.category)).toEqual(['x', 'y']);
    expect(s.byCategory[0].brier).toBeCloseTo(0.2 / 3, 15);
    expect(s.byCategory[1].brier).toBeCloseTo(0.62 / 3, 15);
    expect(s.byCategory[0].accuracy).toBeCloseTo(2 / 3, 15);
    expect(s.byCategory[0].baselineBrier).toBe(0.1875);
    expect(s.byCategory[0].questions).toBe(1);
    expect(s.failures).toEqual({ unparsable: 0, refusals: 0, requestFailed: 0, total: 0, perRun: [0, 0, 0] });
  });

  test('fallbacks sorted into unparsable, refusals and failed requests, per run', () => {
    const s = section([
      ['I cannot answer this question.', 'blah blah'],
      [null, json('B', 50)],
      [json('A', 70), '{"answer": "Z", "probability": 30}'],
    ]);
    expect(s.failures).toEqual({ unparsable: 2, refusals: 1, requestFailed: 1, total: 4, perRun: [2, 1, 1] });
    // A fallback states 1/k: its Brier is (0.25 − o)², so run 1's is computable whatever letter was drawn.
    expect([0.5625 / 2 + 0.25 / 2, 0.0625 / 2 + 0.25 / 2]).toContainEqual(s.brier.perRun[1]);
  });

  test('one run: SD undefined (NaN), not zero', () => {
    const s = section([[json('A', 80), json('B', 60)]]);
    expect(s.runs).toBe(1);
    expect(s.brier.sd).toBeNaN();
    expect(s.brier.mean).toBeCloseTo((0.04 + 0.16) / 2, 15);
  });
});
