/**
 * Sem-ECE on multiple-choice questions as a ModelReport: the question rows (sem-ece-question.ts)
 * scored by the score stage like any open-answer run, with the stated-probability, logprob and
 * entropy-confidence signals beside Sem1/Sem2 in the same pass. A question whose every sample
 * request failed has no classes: it is listed as excluded, not scored.
 */
import { scoreAuthorsRows, type ScoreOptions } from '../pipeline/score-stage';
import type { ModelReport } from '../model/report';
import { signalsFrom } from '../model/signals';
import type { McSemQuestion } from './sem-ece-question';

export function mcSemEceReport(rows: readonly McSemQuestion[], model: string, options: ScoreOptions = {}): ModelReport {
  const scored = rows.filter((r) => r.estimates.n > 0);
  return scoreAuthorsRows(
    {
      questions: scored.map((r, i) => ({ clustered: r.clustered, graded: { ...r.graded, Y: r.graded.Y as 0 | 1 }, clusteredLine: i + 1, gradedLine: i + 1 })),
      excluded: rows.filter((r) => r.estimates.n === 0).map((r) => ({ id: r.clustered.id, reason: 'every sample request failed' })),
      duplicates: [],
      unmatchedGraded: [],
    },
    // Every signal a multiple-choice run can give is compared, a logprob that never came listed as
    // left out; it asks no p(True) and keeps no samples' logprobs, so those are not offered.
    { ...options, extraSignals: Object.fromEntries(scored.map((r) => [r.clustered.id, r.signals])), comparedSignals: signalsFrom(['partition', 'answers', 'verbalized', 'reply']) },
    model,
  );
}
