import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockProviderServer } from '../../mock/provider-server';
import { createProvider } from '../../../src/providers/create-provider';
import { toMcQuestion, type McQuestion } from '../../../src/multiple-choice/prompt';
import { runMcSemEce } from '../../../src/multiple-choice/sem-ece-run';
import { mcSemEceReport } from '../../../src/multiple-choice/sem-ece-report';

const QUESTIONS: McQuestion[] = Array.from({ length: 40 }, (_, i) => {
  const r = toMcQuestion({ id: `q${i}`, question: `Item number ${i}?`, answer: 'A', options: ['a', 'b', 'c', 'd'] });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
});

let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: 'mock-key' });
});
afterAll(async () => {
  await mock.close();
});

describe('Sem-ECE on multiple-choice questions against the loopback mock', () => {
  test('samples, greedy logprobs and the signal comparison', async () => {
    // Question i: samples choose A on (i mod 10) + 1 of 10 replies, B otherwise, always stating 90%.
    // The greedy reply puts logprob ln(share of A) on A: a calibrated logprob signal when A is modal.
    mock.responder = (req, j) => {
      const i = Number(/Item number (\d+)/.exec(req.user)?.[1]);
      const aCount = (i % 10) + 1;
      if (req.temperature === 0) {
        const pA = aCount / 10;
        const top = [{ token: 'A', logprob: Math.log(pA) }, ...(pA < 1 ? [{ token: 'B', logprob: Math.log(1 - pA) }] : [])];
        const letter = pA >= 0.5 ? 'A' : 'B';
        return {
          text: `{"answer": "${letter}", "probability": 90}`,
          logprobs: [
            { token: '{"answer": "', logprob: 0 },
            { token: letter, logprob: letter === 'A' ? Math.log(pA) : Math.log(1 - pA), top_logprobs: top },
            { token: '", "probability": 90}', logprob: 0 },
          ],
        };
      }
      return `{"answer": "${j < aCount ? 'A' : 'B'}", "probability": 90}`;
    };
    const provider = createProvider({ kind: 'openai', preset: 'vllm', baseUrl: `${mock.url}/v1`, model: 'm', apiKey: 'mock-key', maxRetries: 0 });
    const r = await runMcSemEce(provider, QUESTIONS, { samples: 10, temperature: 1, maxTokens: 50, logprobs: true, model: 'm' });
    if (!r.ok) throw new Error(r.error.message);
    const { questions } = r.value;
    // The comparison is made once, when the rows are scored for the run's report.
    const comparison = mcSemEceReport(questions, 'm', { B: 200 }).metrics.comparison!;
    expect(questions).toHaveLength(40);
    const q7 = questions.find((q) => q.clustered.id === 'q7')!; // 8 A of 10
    expect(q7.clustered.cluster_sizes).toEqual([8, 2]);
    expect(q7.estimates.sem1).toBe(0.8);
    expect(q7.graded.Y).toBe(1);
    expect(q7.signals.logprob).toBeCloseTo(0.8, 12);
    expect(q7.signals.stated).toBeCloseTo(0.9, 15);
    const q2 = questions.find((q) => q.clustered.id === 'q2')!; // 3 A of 10: modal B, wrong
    expect(q2.graded).toMatchObject({ modal_cluster_label: 'B', Y: 0 });
    expect(q2.signals.logprob).toBeCloseTo(0.7, 12);
    // Every signal the run has is compared, on all 40 questions.
    expect(comparison.rows).toBe(40);
    expect(comparison.compared).toEqual(['sem1', 'sem2', 'verbalized', 'stated', 'logprob', 'entropyConfidence']);
    expect(comparison.best).not.toBeNull();
    // A is modal when it has ≥ 5 of 10 (a 5–5 tie goes to A, listed first): i mod 10 ∈ 4..9.
    expect(r.value.accuracy).toBe(0.6);
    expect(r.value.failedSamples).toBe(0);
    expect(r.value.logprobAbsent).toBeNull();
  });
});
