import { describe, expect, test } from 'vitest';
import { mcLogprobConfidence, softmax } from '../../../src/baselines/logprob-mc';
import { answerLogprobConfidence, locateAnswer } from '../../../src/baselines/logprob-answer';
import { logprobAbsence } from '../../../src/baselines/logprob-absence';
import type { TokenLogprob } from '../../../src/model/provider';

const t = (token: string, logprob = -0.01, top?: { token: string; logprob: number }[]): TokenLogprob => ({ token, logprob, top });

/** `{"answer": "B", "probability": 80}` tokenised the way OpenAI's tokenizer splits it. */
function jsonReply(answerToken: TokenLogprob): TokenLogprob[] {
  return [t('{"'), t('answer'), t('":'), t(' "'), answerToken, t('",'), t(' "'), t('probability'), t('":'), t(' '), t('80'), t('}')];
}

const ABCD = ['A', 'B', 'C', 'D'];

describe('multiple-choice logprob confidence', () => {
  const top = [
    { token: 'B', logprob: -0.2 },
    { token: 'A', logprob: -1.9 },
    { token: 'C', logprob: -2.5 },
    { token: ' B', logprob: -3.0 },
    { token: 'The', logprob: -4.0 },
  ];
  test('softmax over the option letters, hand-computed', () => {
    const r = mcLogprobConfidence(jsonReply(t('B', -0.2, top)), ABCD);
    if (!r.ok) throw new Error(r.detail);
    // B pools "B" and " B"; D is absent (probability 0); "The" is not a letter.
    const z = Math.exp(-0.2) + Math.exp(-3.0) + Math.exp(-1.9) + Math.exp(-2.5);
    expect(r.chosen).toBe(1);
    expect(r.confidence).toBeCloseTo((Math.exp(-0.2) + Math.exp(-3.0)) / z, 12);
    expect(r.distribution[0]).toBeCloseTo(Math.exp(-1.9) / z, 12);
    expect(r.distribution[2]).toBeCloseTo(Math.exp(-2.5) / z, 12);
    expect(r.distribution[3]).toBe(0);
    expect(r.absent).toEqual(['D']);
    expect(r.tokenIndex).toBe(4);
    // With decimals: 0.868517821 / 1.100171439
    expect(r.confidence).toBeCloseTo(0.78944, 4);
  });
  test("absent letters at the floor: the smallest listed logprob", () => {
    const r = mcLogprobConfidence(jsonReply(t('B', -0.2, top)), ABCD, { absent: 'floor' });
    if (!r.ok) throw new Error(r.detail);
    const z = Math.exp(-0.2) + Math.exp(-3.0) + Math.exp(-1.9) + Math.exp(-2.5) + Math.exp(-4.0);
    expect(r.distribution[3]).toBeCloseTo(Math.exp(-4.0) / z, 12);
    expect(r.confidence).toBeCloseTo((Math.exp(-0.2) + Math.exp(-3.0)) / z, 12);
  });
  test('answer token that carries its quote (`"C`) and a sampled token missing from top', () => {
    const tokens = [t('{"answer":'), t(' "C', -1.2, [{ token: ' "A', logprob: -0.5 }, { token: ' "B', logprob: -2 }]), t('", "probability": 40}')];
    const r = mcLogprobConfidence(tokens, ['A', 'B', 'C']);
    if (!r.ok) throw new Error(r.detail);
    const z = Math.exp(-0.5) + Math.exp(-2) + Math.exp(-1.2);
    expect(r.chosen).toBe(2);
    expect(r.confidence).toBeCloseTo(Math.exp(-1.2) / z, 12);
  });
  test('failures are values with reasons', () => {
    expect(mcLogprobConfidence(undefined, ABCD)).toMatchObject({ ok: false, reason: 'no-logprobs' });
    expect(mcLogprobConfidence([t('I think B')], ABCD)).toMatchObject({ ok: false, reason: 'answer-position-not-found' });
    expect(mcLogprobConfidence(jsonReply(t('B', -0.1)), ABCD)).toMatchObject({ ok: false, reason: 'no-top-logprobs' });
    expect(mcLogprobConfidence(jsonReply(t('E', -0.1, top)), ABCD)).toMatchObject({ ok: false, reason: 'chosen-not-an-option' });
  });
  test('softmax is shift-invariant and handles −∞', () => {
    expect(softmax([1000, 1000])).toEqual([0.5, 0.5]);
    expect(softmax([0, -Infinity])).toEqual([1, 0]);
    expect(softmax([-Infinity]).every(Number.isNaN)).toBe(true);
  });
});

describe('open-answer logprob confidence', () => {
  const reply = [t('Reason', -0.5), t('ing', -0.1), t('.', -0.2), t(' Answer', -0.05), t(':', -0.01), t(' New', -0.3), t(' York', -0.4), t('\n', -0.02), t('Conf', -0.1), t('idence', -0.01), t(':', -0.01), t(' 90', -1.1), t('%', -0.01)];
  test('exp of the summed logprobs of the answer tokens', () => {
    const r = answerLogprobConfidence(reply, 'New York');
    if (!r.ok) throw new Error(r.detail);
    expect(r.tokens).toBe(2);
    expect(r.logprob).toBeCloseTo(-0.7, 12);
    expect(r.confidence).toBeCloseTo(Math.exp(-0.7), 12);
  });
  test('the span is looked for after "Answer:" first', () => {
    expect(locateAnswer('York is big. Answer: York', 'York')).toEqual([21, 25]);
    expect(locateAnswer('York, then York', 'York')).toEqual([11, 15]);
    expect(locateAnswer('nothing', 'York')).toBeNull();
  });
  test('failures are values', () => {
    expect(answerLogprobConfidence([], 'x')).toMatchObject({ ok: false, reason: 'no-logprobs' });
    expect(answerLogprobConfidence(reply, '  ')).toMatchObject({ ok: false, reason: 'empty-answer' });
    expect(answerLogprobConfidence(reply, 'Boston')).toMatchObject({ ok: false, reason: 'answer-not-found' });
  });
});

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
