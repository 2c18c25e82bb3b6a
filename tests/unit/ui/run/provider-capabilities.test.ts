import { describe, expect, test } from 'vitest';
import { DEFAULT_PRICES } from '../../../../src/model/cost';
import { capabilityLines, capabilitySummary } from '../../../../src/ui/run/provider-capabilities';

describe('what the wizard says a provider can do', () => {
  test('each kind of provider: samples per request, batch API, price, logprobs', () => {
    expect(capabilitySummary({ preset: 'openai', model: 'gpt-4o-mini' }, DEFAULT_PRICES)).toEqual({
      samplesPerRequest: { kind: 'several', max: 128 }, batch: true, price: 'known', logprobs: 'yes',
    });
    expect(capabilitySummary({ preset: 'anthropic', model: 'claude-opus-4-1' }, DEFAULT_PRICES)).toEqual({
      samplesPerRequest: { kind: 'one' }, batch: true, price: 'unknown', logprobs: 'no',
    });
    expect(capabilitySummary({ preset: 'groq', model: 'llama' }, DEFAULT_PRICES)).toEqual({
      samplesPerRequest: { kind: 'one' }, batch: false, price: 'unknown', logprobs: 'no',
    });
    expect(capabilitySummary({ preset: 'ollama', model: 'llama3' }, DEFAULT_PRICES)).toEqual({
      samplesPerRequest: { kind: 'one' }, batch: false, price: 'free-local', logprobs: 'no',
    });
    expect(capabilitySummary({ preset: 'custom', model: 'whatever' }, DEFAULT_PRICES)).toEqual({
      samplesPerRequest: { kind: 'probed' }, batch: false, price: 'unknown', logprobs: 'unknown',
    });
  });

  test('the price line follows the user’s table: a price set for a custom server is known; free only for a local preset at 0', () => {
    expect(capabilitySummary({ preset: 'custom', model: 'm' }, { ...DEFAULT_PRICES, 'custom/m': { input: 1, output: 2 } }).price).toBe('known');
    expect(capabilitySummary({ preset: 'custom', model: 'm' }, { 'custom/': { input: 0, output: 0 } }).price).toBe('known');
    expect(capabilitySummary({ preset: 'vllm', model: 'm' }, { 'vllm/': { input: 0.1, output: 0 } }).price).toBe('known');
  });

  test('in words', () => {
    const lines = capabilityLines(capabilitySummary({ preset: 'custom', model: 'm' }, DEFAULT_PRICES));
    expect(lines.map((l) => `${l.label}: ${l.value}`)).toEqual([
      'Samples per request: probed at run time: n > 1 is tried once, 1 if the server refuses',
      'Batch API: no',
      'Price known: no (add one on the last step)',
      'Logprobs: unknown (tried, left out if refused)',
    ]);
    expect(capabilityLines(capabilitySummary({ preset: 'lmstudio', model: 'm' }, DEFAULT_PRICES)).map((l) => l.value)).toEqual(['1 (one request per sample)', 'no', 'free (local)', 'no']);
  });
});
