import { describe, expect, test } from 'vitest';
import { emptyProgress } from '../../../../src/model/run-spec';
import { progressStages, requestCounterLabel } from '../../../../src/ui/run/progress-stages';

describe('progress panel stages', () => {
  test('an open-answer run shows every stage in sampling words', () => {
    const p = emptyProgress(10);
    expect(progressStages(p).map((r) => r.label)).toEqual(['Dataset', 'Sampling answers', 'Grouping by meaning', 'Grading', 'Scoring', 'Saving the report']);
    expect(requestCounterLabel(p)).toBe('Samples');
  });

  test('a multiple-choice run asks questions and has no clustering or grading rows', () => {
    const p = { ...emptyProgress(9), mc: { runsDone: 0, runsTotal: 3 } };
    const rows = progressStages(p);
    expect(rows.map((r) => r.stage)).toEqual(['dataset', 'sample', 'score', 'report']);
    expect(rows.map((r) => r.label)).toEqual(['Dataset', 'Asking the questions', 'Scoring', 'Saving the report']);
    expect(requestCounterLabel(p)).toBe('Questions asked');
  });
});
