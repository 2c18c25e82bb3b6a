/**
 * `viewExtras: false` (what `semece score` without --report scores with) leaves out only what the
 * printed document never holds (the signal comparison, before and after recalibration, the
 * abstention thresholds, the consistency bands): every other metric, and the printed document itself, are the same bits as a full scoring.
 */
import { describe, expect, test } from 'vitest';
import { defaultRng } from '../../../src/core/rng';
import { simulateSet } from '../../../src/core/simulate-families';
import { readAuthorsRows } from '../../../src/formats/authors-rows';
import { PAPER_SIGNALS, scoreAuthorsRows } from '../../../src/pipeline/score-stage';
import { scoreCliDocument } from '../../../src/pipeline/score-documents';

/** Authors' rows of a random mixed-difficulty cell, as bench/score.bench.ts writes them, smaller. */
function authorsRows(count: number, samples: number, seed: number) {
  const rng = defaultRng(seed);
  const sims = simulateSet({ count, n: samples, difficulty: 'mixed', classes: 6, seed });
  const clustered: string[] = [];
  const graded: string[] = [];
  sims.forEach((q, i) => {
    const labels = q.sizes.map((_, k) => `answer ${k}`);
    const conf = Array.from({ length: samples }, () => (rng.random() < 0.1 ? null : Math.round(rng.random() * 100) / 100));
    const answers = Array.from(q.assignments, (k) => labels[k]);
    clustered.push(JSON.stringify({
      id: `q${i}`, question: `Question ${i}?`, gold_answer: 'gold', model: 'synthetic', n_samples: samples,
      results: answers.map((a) => `Answer: ${a}`), answer_extracted: answers, confidence_verbalized: conf,
      n_clusters: q.sizes.length, cluster_labels: labels, cluster_assignments: Array.from(q.assignments), cluster_sizes: q.sizes,
      modal_cluster: q.modal, modal_cluster_label: labels[q.modal],
    }));
    graded.push(JSON.stringify({ id: `q${i}`, model: 'synthetic', grade: q.y ? 'CORRECT' : 'INCORRECT', Y: q.y }));
  });
  const read = readAuthorsRows({ text: clustered.join('\n'), file: 'c.jsonl' }, { text: graded.join('\n'), file: 'g.jsonl' }, { dropReplies: true, dropAnswers: true });
  if (!read.ok) throw new Error(read.error.message);
  return read.value;
}

describe('scoring without the views’ extras', () => {
  test.each([11, 12])('same metrics and the same printed document as a full scoring (seed %i)', (seed) => {
    const rows = authorsRows(400, 12, seed);
    const options = { B: 60, signals: PAPER_SIGNALS, regimeIntervals: false, samples: 'none' as const };
    const full = scoreAuthorsRows(rows, options);
    const lean = scoreAuthorsRows(rows, { ...options, viewExtras: false });
    expect(full.metrics.comparison).toBeDefined();
    expect(full.metrics.abstention).toBeDefined();
    expect(full.metrics.consistencyBands).toBeDefined();
    expect(full.metrics.recalibratedComparison).toBeDefined();
    const { comparison: _c, abstention: _a, consistencyBands: _b, recalibratedComparison: _r, ...rest } = full.metrics;
    expect(Object.keys(lean.metrics)).toEqual(Object.keys(rest));
    expect(lean.metrics).toStrictEqual(rest);
    expect(JSON.stringify(scoreCliDocument(lean, rows, options))).toBe(JSON.stringify(scoreCliDocument(full, rows, options)));
  });
});
