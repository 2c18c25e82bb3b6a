/**
 * One place makes a run's generation settings from its sampling settings (samplingSettingsOf), so
 * the sample stage, the batch request set and the report's read-back key samples alike: a run
 * without logprobs keys them as runs always have, and one with logprobs under keys of its own that
 * every path shares.
 */
import { describe, expect, test } from 'vitest';
import { samplingSettingsOf, questionKeyBase } from '../../../src/pipeline/sample-keys';
import { requestSetForRun } from '../../../src/batch/run-request-set';
import type { RunSpec } from '../../../src/model/run-spec';

const question = { id: 'q1', question: 'What is the capital of France?', answer: 'Paris' };
function spec(logprobs?: boolean): RunSpec {
  return {
    title: 't',
    dataset: { name: 'd', source: 'test', questions: [question] },
    models: [{ kind: 'openai', preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' }],
    sampling: { n: 4, temperature: 1, topP: 1, maxTokens: 100, prompt: 'Q: {question}', concurrency: 2, ...(logprobs ? { logprobs } : {}) },
    clustering: { method: 'exact' },
    grading: { method: 'alias' },
  };
}

describe('the settings samples are keyed with', () => {
  test('without logprobs: the settings every earlier run keyed its samples with', async () => {
    const s = spec().sampling;
    const before = await questionKeyBase({ config: spec().models[0] }, { temperature: s.temperature, topP: s.topP, maxTokens: s.maxTokens }, s.prompt, question);
    expect(await questionKeyBase({ config: spec().models[0] }, samplingSettingsOf(s), s.prompt, question)).toBe(before);
    expect(samplingSettingsOf({ ...s, logprobs: false })).not.toHaveProperty('logprobs');
  });

  test('with logprobs: keys of their own, the same for the batch request set', async () => {
    const s = spec(true).sampling;
    const plain = await questionKeyBase({ config: spec().models[0] }, samplingSettingsOf(spec().sampling), s.prompt, question);
    const withLogprobs = await questionKeyBase({ config: spec().models[0] }, samplingSettingsOf(s), s.prompt, question);
    expect(withLogprobs).not.toBe(plain);
    const set = await requestSetForRun(spec(true), 0);
    if (!set.ok) throw new Error(set.error.message);
    expect(await set.value.keyBase(question)).toBe(withLogprobs);
  });
});
