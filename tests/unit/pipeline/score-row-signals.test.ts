/**
 * The signals the score stage reads from what the rows carry (p_true, sequence_logprobs) on rows
 * built in memory, as the app's stages hand them over: p(True) and how it was read (a question
 * field, within the fields a report question may keep), the weighted semantic entropy.
 */
import { describe, expect, test } from 'vitest';
import { scoreAuthorsRows } from '../../../src/pipeline/score-stage';
import type { AuthorsRows } from '../../../src/formats/authors-rows';
import type { ClusteredRow } from '../../../src/model/rows';

function rows(fields?: Record<string, string>): AuthorsRows {
  const clustered = (i: number): ClusteredRow => ({
    id: `q${i}`, question: `q${i}?`, gold_answer: 'a', model: 'm', n_samples: 2, results: ['', ''], answer_extracted: ['a', 'b'], confidence_verbalized: [null, null],
    n_clusters: 2, cluster_labels: ['a', 'b'], cluster_assignments: [0, 1], cluster_sizes: [1, 1], modal_cluster: 0, modal_cluster_label: 'a',
    p_true: i / 4, p_true_method: i % 2 ? 'sampled' : 'logprobs', sequence_logprobs: [Math.log(0.75), Math.log(0.25)],
  });
  return {
    questions: [1, 2, 3].map((i) => ({ clustered: clustered(i), graded: { id: `q${i}`, grade: i === 2 ? 'INCORRECT' : 'CORRECT', Y: i === 2 ? 0 : 1 }, clusteredLine: i, gradedLine: i, ...(fields ? { fields } : {}) })),
    excluded: [],
    duplicates: [],
    unmatchedGraded: [],
  };
}

describe('signals from the rows in the app’s scoring', () => {
  test('p_true and its method per question; the weighted semantic entropy from the sequence log-probabilities', () => {
    const report = scoreAuthorsRows(rows({ category: 'x' }), { B: 20 });
    expect(report.questions.map((q) => q.signals?.p_true)).toEqual([0.25, 0.5, 0.75]);
    expect(report.questions.map((q) => q.fields)).toEqual([1, 2, 3].map((i) => ({ category: 'x', p_true_method: i % 2 ? 'sampled' : 'logprobs' })));
    // p = (¾, ¼): exp(−H) = ¾^¾ · ¼^¼.
    expect(report.questions[0].signals?.semantic_entropy_weighted).toBeCloseTo(0.75 ** 0.75 * 0.25 ** 0.25, 14);
    expect(report.metrics.signals.p_true).toBeDefined();
  });

  test('a question already holding as many fields as a report keeps gets no method field', () => {
    const full = Object.fromEntries(Array.from({ length: 8 }, (_, k) => [`f${k}`, 'v']));
    const report = scoreAuthorsRows(rows(full), { B: 20 });
    expect(report.questions[0].fields).toEqual(full);
    expect(report.questions[0].signals?.p_true).toBe(0.25);
  });
});
