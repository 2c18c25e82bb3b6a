import { describe, expect, test } from 'vitest';
import { DEFAULT_PRICES } from '../../../../src/model/cost';
import type { ModelSpec, RunSpec } from '../../../../src/model/run-spec';
import { estimateRun, formatCountRange, formatUsd } from '../../../../src/ui/run/estimate';

const model = (preset: string, name = 'm'): ModelSpec => ({ kind: 'openai', preset, baseUrl: 'http://127.0.0.1:1/v1', model: name });
function spec(models: ModelSpec[], n = 10): RunSpec {
  return {
    title: 't',
    dataset: { name: 'd', source: 'test', questions: [{ id: 'a', question: 'one?', answer: 'x' }, { id: 'b', question: 'two?', answer: 'y' }] },
    models,
    sampling: { n, temperature: 1, maxTokens: 100, prompt: 'Q: {question}', concurrency: 4 },
    clustering: { method: 'exact' },
    grading: { method: 'alias' },
  };
}

describe('the run estimate follows each provider’s capabilities', () => {
  test('requests count n per request where the provider takes it, one per sample where it does not', () => {
    const { rows } = estimateRun(spec([model('openai', 'gpt-4o-mini'), model('groq'), model('gemini', 'gemini-2.5-flash')]), DEFAULT_PRICES);
    expect(rows.map((r) => r.requests)).toEqual([2, 20, 4]);
    expect(rows.map((r) => r.upTo)).toEqual([undefined, undefined, undefined]);
    // Input tokens go with the requests: one prompt per request.
    expect(rows[1].inputTokens).toBe(rows[0].inputTokens * 10);
  });

  test('a custom server: requests from n per request to one per sample, cost unknown without a price', () => {
    const { rows, total } = estimateRun(spec([model('custom')]), DEFAULT_PRICES);
    expect(rows[0]).toMatchObject({ requests: 2, upTo: { requests: 20 }, cost: { typical: null, max: null }, local: false });
    expect(rows[0].upTo!.inputTokens).toBe(rows[0].inputTokens * 10);
    expect(total.upTo).toEqual(rows[0].upTo);
    expect(formatCountRange(total.requests, total.upTo?.requests)).toBe('2 – 20');
    expect(formatUsd(total.cost.max, { local: total.local })).toBe('unknown (no price for this model)');
    // With a price, the most requests bound the highest cost.
    const priced = estimateRun(spec([model('custom')]), { 'custom/m': { input: 1e6, output: 0 } }).rows[0];
    expect(priced.cost.max).toBe(priced.upTo!.inputTokens);
    expect(priced.cost.typical).toBe(priced.inputTokens);
  });

  test('"$0 (local)" only for local presets; a 0 set for another provider is just $0', () => {
    const local = estimateRun(spec([model('ollama'), model('vllm')]), DEFAULT_PRICES).total;
    expect(local.local).toBe(true);
    expect(formatUsd(local.cost.max, { local: local.local })).toBe('$0 (local)');
    const custom = estimateRun(spec([model('custom')]), { 'custom/': { input: 0, output: 0 } }).total;
    expect(formatUsd(custom.cost.max, { local: custom.local })).toBe('$0');
    const mixed = estimateRun(spec([model('ollama'), model('custom')]), { ...DEFAULT_PRICES, 'custom/': { input: 0, output: 0 } }).total;
    expect(mixed.local).toBe(false);
    expect(formatUsd(mixed.cost.max, { local: mixed.local })).toBe('$0');
  });
});

describe('the multiple-choice estimate follows them too', () => {
  const mcSpec = (preset: string): RunSpec => ({
    ...spec([model(preset)]),
    dataset: { name: 'mc', source: 'test', questions: [{ id: 'q1', question: 'one?', answer: 'A', options: ['a', 'b'] }, { id: 'q2', question: 'two?', answer: 'B', options: ['c', 'd'] }] },
    mc: { runs: 3, seed: 0, samples: 10, logprobs: true },
  });

  test('a custom server: its Sem-ECE samples from n per request to one per sample; a local one costs "$0 (local)"', () => {
    const [custom] = estimateRun(mcSpec('custom'), DEFAULT_PRICES).rows;
    // 3 runs + (1 request of 10 samples + 1 greedy) per question, up to 3 + 11.
    expect(custom.requests).toBe(2 * 5);
    expect(custom.upTo?.requests).toBe(2 * 14);
    const { total } = estimateRun(mcSpec('ollama'), DEFAULT_PRICES);
    expect(total.upTo).toBeUndefined();
    expect(formatUsd(total.cost.max, { local: total.local })).toBe('$0 (local)');
  });
});
