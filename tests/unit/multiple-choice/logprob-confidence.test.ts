import { describe, expect, test } from 'vitest';
import { mcLogprobConfidence, softmax } from '../../../src/multiple-choice/logprob-confidence';
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
