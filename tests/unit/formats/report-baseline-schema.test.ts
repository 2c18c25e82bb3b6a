import { describe, expect, test } from 'vitest';
import { parseReport } from '../../../src/formats/report-import';
import { mcReportDocument } from '../../../src/multiple-choice/report-document';
import { mcOutcome } from '../../../src/multiple-choice/outcome';
import { mcRunScores } from '../../../src/multiple-choice/brier-scoring';
import { summarizeMcRuns } from '../../../src/multiple-choice/runs-summary';
import type { McQuestion } from '../../../src/multiple-choice/prompt';
import { sampleReport } from '../share/report-fixture';

const Q: McQuestion = { id: 'q1', question: 'one?', options: ['a', 'b', 'c', 'd'], letters: ['A', 'B', 'C', 'D'], gold: 0 };

/** A baseline-only report of one question over two runs. */
function baselineReport(): any {
  const replies = ['{"answer":"A","probability":80}', 'I will not answer that.'];
  const rows = replies.map((raw, run) => ({ ...mcOutcome(Q, raw, run), run, seed: run, raw, logprob: null }));
  const summary = summarizeMcRuns([0, 1].map((r) => mcRunScores(rows.filter((x) => x.run === r))));
  const doc = mcReportDocument({ model: 'm', dataset: { name: 'mc.jsonl' }, baseline: { rows, summary }, settings: { samples: 0, temperature: 1, maxTokens: 400 } });
  return JSON.parse(JSON.stringify(doc));
}

function refusal(value: unknown): string {
  const r = parseReport(value);
  if (r.ok) throw new Error('expected a refusal');
  return r.error.message;
}

describe('report schema: the baseline section', () => {
  test('a report with the section imports with its numbers (null SD and metrics read back as NaN)', () => {
    const j = baselineReport();
    j.models[0].baseline.brier.sd = null;
    const r = parseReport(JSON.stringify(j));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const b = r.value.models[0].baseline!;
    expect(b.kind).toBe('confidencebench');
    expect(b.baselineBrier).toBe(0.1875);
    expect(b.brier.perRun[0]).toBeCloseTo(0.04, 15);
    expect(b.brier.sd).toBeNaN();
    expect(b.failures).toEqual({ unparsable: 0, refusals: 1, requestFailed: 0, total: 1, perRun: [0, 1] });
    expect(r.value.settings.samples).toBe(0);
    expect(r.value.models[0].questions).toEqual([]);
  });

  test('an old report without the section still imports, with no baseline', () => {
    const r = parseReport(JSON.stringify(sampleReport()));
    expect(r.ok).toBe(true);
    expect(r.ok && r.value.models[0].baseline).toBeUndefined();
  });

  test('a bad section is refused naming the field', () => {
    let j = baselineReport();
    j.models[0].baseline.kind = 'other';
    expect(refusal(j)).toMatch(/^models\[0\]\.baseline\.kind: /);
    j = baselineReport();
    j.models[0].baseline.brier.perRun = [0.1];
    expect(refusal(j)).toMatch(/^models\[0\]\.baseline\.brier\.perRun: 1 values but runs is 2/);
    j = baselineReport();
    j.models[0].baseline.options = [4, 1];
    expect(refusal(j)).toMatch(/^models\[0\]\.baseline\.options\[1\]: expected a whole number ≥ 2/);
    j = baselineReport();
    j.models[0].baseline.failures.total = 5;
    expect(refusal(j)).toMatch(/^models\[0\]\.baseline\.failures\.total: /);
    j = baselineReport();
    delete j.models[0].baseline.baselineBrier;
    expect(refusal(j)).toMatch(/^models\[0\]\.baseline\.baselineBrier: missing/);
  });
});
