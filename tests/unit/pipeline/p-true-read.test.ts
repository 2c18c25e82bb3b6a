import { describe, expect, test } from 'vitest';
import { brainstormedAnswers, proposedAnswer, pTrueFromLogprobs, pTrueFromVerdicts, pTrueMessages, verdictOfText } from '../../../src/pipeline/p-true-read';

describe('the proposed answer and the brainstormed ideas', () => {
  test('the most frequent answer, case and spaces folded, first seen on a tie, empty ones skipped', () => {
    expect(proposedAnswer(['Lyon', 'paris', ' Paris ', '', null, 'LYON', 'Nice'])).toBe('Lyon');
    expect(proposedAnswer(['a', 'b', 'b'])).toBe('b');
    expect(proposedAnswer(['', null])).toBe('');
    expect(brainstormedAnswers(['Paris', 'lyon', 'paris', 'Lyon', 'Nice', ''], 'PARIS')).toEqual(['lyon', 'Nice']);
  });

  test("LM-Polygraph's prompt, with the ideas only when given", () => {
    expect(pTrueMessages('Q?', 'A')[0].content).toBe('Question: Q?\nPossible answer: A\nIs the possible answer:\n (A) True\n (B) False\nAnswer True or False.\nThe possible answer is:');
    expect(pTrueMessages('Q?', 'A', ['B', 'C'])[0].content).toContain('Question: Q?\nHere are some ideas that were brainstormed: B, C\nPossible answer: A\n');
  });
});

describe('reading the verdict', () => {
  test('the first word that reads as a verdict', () => {
    expect(verdictOfText('True')).toBe(true);
    expect(verdictOfText('(B) False')).toBe(false);
    expect(verdictOfText('**Yes**, it is.')).toBe(true);
    expect(verdictOfText('The possible answer is: False.')).toBe(false);
    expect(verdictOfText('I cannot tell')).toBeUndefined();
  });

  test('logprobs: P(true) / (P(true) + P(false)) at the first verdict token, each distinct token once', () => {
    const ln = Math.log;
    // "The" is not a verdict; at " True": True 0.5 (chosen, also listed), Yes 0.1, False 0.2, No 0.1, maybe 0.05.
    const tokens = [
      { token: 'The', logprob: ln(0.9) },
      { token: ' True', logprob: ln(0.5), top: [{ token: ' True', logprob: ln(0.5) }, { token: ' Yes', logprob: ln(0.1) }, { token: ' False', logprob: ln(0.2) }, { token: 'No', logprob: ln(0.1) }, { token: ' maybe', logprob: ln(0.05) }] },
    ];
    expect(pTrueFromLogprobs(tokens)).toBeCloseTo(0.6 / 0.9, 15);
    // The chosen token missing from its own top list still counts.
    expect(pTrueFromLogprobs([{ token: 'False', logprob: ln(0.75), top: [{ token: 'True', logprob: ln(0.25) }] }])).toBeCloseTo(0.25, 15);
    expect(pTrueFromLogprobs([{ token: 'Hmm', logprob: 0 }])).toBeUndefined();
    expect(pTrueFromLogprobs(undefined)).toBeUndefined();
  });

  test('sampled: the share of True among the replies that read as a verdict', () => {
    expect(pTrueFromVerdicts([{ text: 'True' }, { text: 'False' }, { text: '?' }, { text: 'Yes' }])).toEqual({ value: 2 / 3, verdicts: 3 });
    expect(pTrueFromVerdicts([{ text: 'unsure' }])).toBeUndefined();
  });
});
