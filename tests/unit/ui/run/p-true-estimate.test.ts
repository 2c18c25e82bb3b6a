import { describe, expect, test } from 'vitest';
import { DEFAULT_PRICES } from '../../../../src/model/cost';
import type { ModelSpec, RunSpec } from '../../../../src/model/run-spec';
import { estimateRun } from '../../../../src/ui/run/estimate';

const model = (preset: string, name = 'm'): ModelSpec => ({ kind: preset === 'gemini' ? 'gemini' : 'openai', preset, baseUrl: 'http://127.0.0.1:1/v1', model: name });
function spec(models: ModelSpec[], pTrue?: RunSpec['sampling']['pTrue']): RunSpec {
  return {
    title: 't',
    dataset: { name: 'd', source: 'test', questions: [{ id: 'a', question: 'one?', answer: 'x' }, { id: 'b', question: 'two?', answer: 'y' }] },
    models,
    sampling: { n: 10, temperature: 1, maxTokens: 100, prompt: 'Q: {question}', concurrency: 4, ...(pTrue ? { pTrue } : {}) },
    clustering: { method: 'exact' },
    grading: { method: 'alias' },
  };
}

describe('p(True) in the run estimate, before anything is sent', () => {
  test('one request per question where the provider returns logprobs, else the sampled replies in requests of its n', () => {
    const models = [model('openai', 'gpt-4o-mini'), model('groq'), model('gemini', 'gemini-2.5-flash')];
    const { rows, total } = estimateRun(spec(models, { samples: 10, brainstorm: false }), DEFAULT_PRICES);
    const pTrue = rows.filter((r) => r.label.startsWith('p(True)'));
    expect(pTrue.map((r) => r.label)).toEqual(['p(True) gpt-4o-mini on OpenAI', 'p(True) m on Groq', 'p(True) gemini-2.5-flash on Google Gemini']);
    // OpenAI: logprobs, 1 request each. Groq: no logprobs, one reply per request: 1 + 9. Gemini: n ≤ 8: 1 + ⌈9/8⌉.
    expect(pTrue.map((r) => r.requests)).toEqual([2, 20, 6]);
    // Typical verdicts are two tokens; at most 8 tokens for each of the 10 replies.
    expect(pTrue[0].outputTokens).toEqual({ typical: 4, max: 160 });
    expect(pTrue[1].outputTokens.typical).toBe(40);
    expect(pTrue.every((r) => r.samples === 0)).toBe(true);
    // Priced, and in the total.
    expect(pTrue[0].cost.typical).toBeGreaterThan(0);
    const without = estimateRun(spec(models), DEFAULT_PRICES);
    expect(without.rows.some((r) => r.label.startsWith('p(True)'))).toBe(false);
    expect(total.requests).toBe(without.total.requests + 28);
    // A priced model's total cost holds its p(True) row's.
    const priced = estimateRun(spec([models[0]], { samples: 10, brainstorm: false }), DEFAULT_PRICES);
    const unpriced = estimateRun(spec([models[0]]), DEFAULT_PRICES);
    expect(priced.total.cost.typical!).toBeCloseTo(unpriced.total.cost.typical! + pTrue[0].cost.typical!, 12);
  });

  test('a server the table does not know: from one request per question up to the sampled replies; brainstorming lengthens the prompt', () => {
    const [row] = estimateRun(spec([model('custom')], { samples: 10, brainstorm: false }), DEFAULT_PRICES).rows.filter((r) => r.label.startsWith('p(True)'));
    expect(row.requests).toBe(2);
    expect(row.upTo).toEqual({ requests: 4, inputTokens: row.inputTokens * 2 });
    const [ideas] = estimateRun(spec([model('custom')], { samples: 10, brainstorm: true }), DEFAULT_PRICES).rows.filter((r) => r.label.startsWith('p(True)'));
    expect(ideas.inputTokens).toBeGreaterThan(row.inputTokens);
  });
});
