import { describe, expect, test } from 'vitest';
import { toMcQuestion } from '../../../src/multiple-choice/prompt';
import { mcSemEceQuestion } from '../../../src/multiple-choice/sem-ece-question';
import { scoredSignals } from '../../../src/pipeline/score-stage';
import { mcSemEceReport } from '../../../src/multiple-choice/sem-ece-report';
import { compareReportSignals } from '../../../src/pipeline/signal-comparison';
import { eceEqualWidth } from '../../../src/core/ece';
import type { TokenLogprob } from '../../../src/model/provider';

/** Question i: 10 samples, A chosen (i mod 10) + 1 times, each stating 80%; gold A. */
function rows(withLogprobs: (i: number) => boolean) {
  return Array.from({ length: 30 }, (_, i) => {
    const q = toMcQuestion({ id: `q${i}`, question: `Q${i}`, answer: 'A', options: ['a', 'b', 'c', 'd'] });
    if (!q.ok) throw new Error(q.error.message);
    const a = (i % 10) + 1;
    const replies = Array.from({ length: 10 }, (_, j) => `{"answer": "${j < a ? 'A' : 'C'}", "probability": 80}`);
    const greedy: TokenLogprob[] = [{ token: '{"answer": "', logprob: 0 }, { token: 'A', logprob: -0.2, top: [{ token: 'A', logprob: -0.2 }, { token: 'C', logprob: -1.8 }] }];
    return mcSemEceQuestion({ question: q.value, replies, greedyLogprobs: withLogprobs(i) ? greedy : undefined }, 'mock');
  });
}

describe('extra signals in the report', () => {
  test('stated, logprob and entropy confidence are scored columns beside Sem1/Sem2', () => {
    const report = mcSemEceReport(rows(() => true), 'mock', { B: 100 });
    expect(report.questions).toHaveLength(30);
    expect(Object.keys(report.metrics.signals)).toEqual(['sem1', 'sem2', 'verbalized', 'stated', 'logprob', 'entropyConfidence', 'semantic_entropy', 'num_sets', 'eigv', 'degree', 'eccentricity', 'lexical_similarity']);
    const stated = report.questions.map((q) => q.signals!.stated!);
    const y = report.questions.map((q) => q.correct);
    expect(report.metrics.signals.stated!.ece).toBe(eceEqualWidth(stated, y));
    expect(report.questions[7].signals!.entropyConfidence).toBeCloseTo(Math.exp(0.8 * Math.log(0.8) + 0.2 * Math.log(0.2)), 12);
    expect(report.metrics.eceIntervals.logprob).toHaveLength(3);
    const cmp = compareReportSignals(report, { B: 100 });
    // The six probabilities; the six confidence forms are listed as left out.
    expect(cmp.compared).toHaveLength(6);
    expect(cmp.excluded).toHaveLength(6);
    // Made in the same pass as the metrics, from the same replicates, and stored with them.
    expect(report.metrics.comparison).toEqual(cmp);
  });

  test('a signal on only some questions is shown but not scored', () => {
    const report = mcSemEceReport(rows((i) => i % 2 === 0), 'mock', { B: 100 });
    expect(report.questions[0].signals!.logprob).toBeDefined();
    expect(report.questions[1].signals!.logprob).toBeUndefined();
    expect(scoredSignals(report.questions)).not.toContain('logprob');
    expect(report.metrics.signals.logprob).toBeUndefined();
    expect(report.metrics.signals.stated).toBeDefined();
    // The comparison restricts to the questions with a logprob (its own bootstrap on those rows).
    const cmp = compareReportSignals(report, { B: 100 });
    expect(cmp.rows).toBe(15);
    expect(report.metrics.comparison).toEqual(cmp);
  });
});
