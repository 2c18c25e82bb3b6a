import { describe, expect, test } from 'vitest';
import { emptyProgress } from '../../../../src/model/run-spec';
import { progressStages, requestCounterLabel, requestCounts } from '../../../../src/ui/run/progress-stages';

describe('progress panel stages', () => {
  test('an open-answer run shows every stage in sampling words', () => {
    const p = emptyProgress(10);
    expect(progressStages(p).map((r) => r.label)).toEqual(['Dataset', 'Sampling answers', 'Grouping by meaning', 'Grading', 'Scoring', 'Saving the report']);
    expect(requestCounterLabel(p)).toBe('Samples stored');
  });

  test('a multiple-choice run asks questions and has no clustering or grading rows', () => {
    const p = { ...emptyProgress(9), mc: { runsDone: 0, runsTotal: 3 } };
    const rows = progressStages(p);
    expect(rows.map((r) => r.stage)).toEqual(['dataset', 'sample', 'score', 'report']);
    expect(rows.map((r) => r.label)).toEqual(['Dataset', 'Asking the questions', 'Scoring', 'Saving the report']);
    expect(requestCounterLabel(p)).toBe('Questions asked');
  });

  test('every request sent is counted once, by how it ended; a record from before handled requests were counted has none', () => {
    const p = emptyProgress(10);
    p.requests = { done: 380, failed: 2, retrying: 0, handled: 11 };
    expect(requestCounts(p)).toEqual({ sent: 393, answered: 380, failed: 2, handled: 11 });
    p.requests = { done: 5, failed: 1, retrying: 1 };
    expect(requestCounts(p)).toEqual({ sent: 6, answered: 5, failed: 1, handled: 0 });
    expect(progressStages(p).map((r) => r.unit)).toEqual(['questions', 'samples', 'answer sets', 'answer sets', 'models', 'report']);
  });
});
