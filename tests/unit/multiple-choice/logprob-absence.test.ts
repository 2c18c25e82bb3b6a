import { describe, expect, test } from 'vitest';
import { logprobAbsence } from '../../../src/multiple-choice/logprob-absence';
import type { TokenLogprob } from '../../../src/model/provider';

const t = (token: string, logprob = -0.01): TokenLogprob => ({ token, logprob });

describe('why logprobs are missing', () => {
  test('provider without logprobs', () => {
    expect(logprobAbsence({ kind: 'anthropic', preset: 'anthropic', model: 'claude-x' }, [{}])).toMatch(/Anthropic/);
    expect(logprobAbsence({ kind: 'openai', preset: 'openai', model: 'o3-mini' }, [{}])).toMatch(/reasoning model/);
  });
  test('asked for and not returned', () => {
    expect(logprobAbsence({ kind: 'openai', preset: 'openai', model: 'gpt-4o-mini' }, [{}, {}])).toMatch(/returned none/);
    expect(logprobAbsence({ kind: 'openai', preset: 'vllm', model: 'm' }, [{ logprobs: [t('x')] }, {}])).toMatch(/1 of 2/);
    expect(logprobAbsence({ kind: 'openai', preset: 'openai', model: 'gpt-4o-mini' }, [{}], ['The model refused logprobs: sent without them.'])).toMatch(/refused/);
  });
  test('present: null', () => {
    expect(logprobAbsence({ kind: 'openai', preset: 'openai', model: 'gpt-4o-mini' }, [{ logprobs: [t('x')] }])).toBeNull();
  });
});
