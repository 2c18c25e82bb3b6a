import { describe, expect, test } from 'vitest';
import { compareDocuments, leaderboardOf } from '../../../src/workers/compare-api';
import { compareEntries } from '../../../src/pipeline/report-alignment';
import { compareReports } from '../../../src/pipeline/report-comparison';
import { leaderboard } from '../../../src/pipeline/leaderboard';
import { sampleReport } from '../share/report-fixture';

describe('compare-api (what the import worker serves to Compare and Leaderboard)', () => {
  const doc = sampleReport({ questions: 12, samples: false });
  const one = { ...doc, models: [doc.models[0]] };

  test('fewer than two models is refused with a message naming how many there are', () => {
    const r = compareDocuments([{ source: 'a.json', document: one }], { B: 20 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('A comparison needs at least two models; the reports chosen hold 1.');
    const l = leaderboardOf([], 'sem2', { B: 20 });
    expect(l.ok).toBe(false);
    if (!l.ok) expect(l.error.message).toContain('A leaderboard needs at least two models');
  });

  test('gives what the pipeline gives for the same entries (the worker adds nothing of its own)', () => {
    const reports = [{ source: 'x.json', document: doc }];
    const r = compareDocuments(reports, { B: 50, seed: 3 });
    expect(r).toEqual({ ok: true, value: compareReports(compareEntries(reports), { B: 50, seed: 3 }) });
    const l = leaderboardOf(reports, 'sem1', { B: 50 });
    expect(l).toEqual({ ok: true, value: leaderboard(compareEntries(reports), 'sem1', { B: 50 }) });
  });
});
