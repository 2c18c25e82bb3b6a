import { describe, expect, test } from 'vitest';
import { hasMcOptions, mcProblems } from '../../../../src/ui/run/multiple-choice-draft';
import { estimateMultipleChoiceRows } from '../../../../src/ui/run/multiple-choice-estimate';
import { mcRequestsPerModel } from '../../../../src/multiple-choice/job';
import { estimateRun } from '../../../../src/ui/run/estimate';
import type { RunSpec } from '../../../../src/model/run-spec';
import type { Dataset } from '../../../../src/model/rows';

const dataset: Dataset = {
  name: 'mc',
  source: 'test',
  questions: [
    { id: 'q1', question: 'one?', answer: 'A', options: ['a', 'b', 'c', 'd'] },
    { id: 'q2', question: 'two?', answer: 'B', options: ['yes', 'no'] },
  ],
};

function spec(mc: RunSpec['mc']): RunSpec {
  return {
    title: 't',
    dataset,
    models: [{ kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-4o-mini' }],
    sampling: { n: 50, temperature: 1, maxTokens: 100, prompt: '{question}', concurrency: 4 },
    clustering: { method: 'judge', judge: { kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'j' } },
    grading: { method: 'alias' },
    mc,
  };
}

describe('multiple-choice mode of the wizard', () => {
  test('is offered only when every question has 2 to 10 options', () => {
    expect(hasMcOptions(dataset)).toBe(true);
    expect(hasMcOptions({ ...dataset, questions: [...dataset.questions, { id: 'q3', question: 'open?', answer: 'x' }] })).toBe(false);
    expect(hasMcOptions({ ...dataset, questions: [{ id: 'q', question: 'one option?', answer: 'A', options: ['only'] }] })).toBe(false);
    expect(hasMcOptions(null)).toBe(false);
  });

  test('names each bad setting', () => {
    const s = { temperature: 1, maxTokens: 100, concurrency: 4 };
    expect(mcProblems({ runs: 3, seed: 0, samples: 0, logprobs: true }, s)).toEqual([]);
    const bad = mcProblems({ runs: 0, seed: -1, samples: 1.5, logprobs: true }, { temperature: 3, maxTokens: 4, concurrency: 0 });
    expect(bad).toHaveLength(6);
    expect(bad[0]).toMatch(/^Runs/);
  });

  test('the estimate counts the requests of the multiple-choice run, without judges', () => {
    // 2 questions × 3 runs; with 5 samples: one sampling request (OpenAI takes n ≤ 128) and one greedy request per question.
    expect(estimateRun(spec({ runs: 3, seed: 0, samples: 0, logprobs: true }), {}).total.requests).toBe(6);
    expect(estimateRun(spec({ runs: 3, seed: 0, samples: 5, logprobs: true }), {}).total.requests).toBe(10);
    expect(estimateRun(spec({ runs: 3, seed: 0, samples: 5, logprobs: false }), {}).total.requests).toBe(8);
    expect(estimateRun(spec({ runs: 3, seed: 0, samples: 5, logprobs: false }), {}).rows).toHaveLength(1);
    // The run page's request total counts the same calls.
    expect(mcRequestsPerModel(2, { runs: 3, samples: 5, logprobs: true })).toBe(10);
    const [row] = estimateMultipleChoiceRows({ ...spec(undefined), mc: { runs: 1, seed: 0, samples: 0, logprobs: false } }, {});
    expect(row.outputTokens.max).toBe(2 * 100);
    expect(row.cost.typical).toBeNull();
  });
});
