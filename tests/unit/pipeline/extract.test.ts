import { describe, expect, it } from 'vitest';
import { FALLBACK_TAIL_CHARS, extractAnswer, extractConfidence, extractSample } from '../../../src/pipeline/extract.ts';
import { DEFAULT_GENERATION_PROMPT, fillPrompt, validatePromptTemplate } from '../../../src/pipeline/prompts.ts';

describe('answer extraction', () => {
  it.each([
    ['Some thinking.\nAnswer: Paris\nConfidence: 90%', 'Paris'],
    ['Answer:   Paris  \nConfidence: 90%', 'Paris'],
    ['Answer: Paris', 'Paris'],
    // Up to a newline followed by Confidence: an answer may span lines.
    ['Answer: Marie Curie\n(born Skłodowska)\nConfidence: 70%', 'Marie Curie\n(born Skłodowska)'],
    // Only the first Answer: counts.
    ['Answer: 1912\nConfidence: 60%\nAnswer: 1913\nConfidence: 40%', '1912'],
    // "Confidence" not after a newline does not end the answer.
    ['Answer: Confidence Man (1857 novel)\nConfidence: 55%', 'Confidence Man (1857 novel)'],
    ['The final answer: 42 is wrong.\nAnswer: 41\nConfidence: 10%', '41'],
    ['**Answer:** Paris\n**Confidence:** 85%', 'Paris'],
  ])('%j → %j', (raw, answer) => {
    expect(extractAnswer(raw)).toEqual({ answer, answerMethod: 'answer-line' });
  });

  it('falls back to the last 200 characters when there is no Answer: line, and marks it', () => {
    const raw = `${'x'.repeat(300)} The capital is Paris.`;
    const r = extractAnswer(raw);
    expect(r.answerMethod).toBe('fallback-tail');
    expect(r.answer).toBe(raw.slice(-FALLBACK_TAIL_CHARS));
  });

  it.each([['Answer: see above\nConfidence: 80%'], ['Answer:\nConfidence: 80%'], ['Answer: ...\nConfidence: 80%'], ['Answer: See above.\nConfidence: 1%']])(
    'treats a non-answer as empty and falls back: %j',
    (raw) => {
      const r = extractAnswer(raw);
      expect(r.answerMethod).toBe('fallback-tail');
      expect(r.answer).toBe(raw.trim().slice(-FALLBACK_TAIL_CHARS));
    },
  );

  it('an empty reply is marked empty', () => {
    expect(extractAnswer('  \n')).toEqual({ answer: '', answerMethod: 'empty' });
  });
});

describe('confidence extraction', () => {
  it.each([
    ['Confidence: 90%', 0.9],
    ['Confidence: 72.5%', 0.725],
    ['Confidence: 0%', 0],
    ['Confidence: 150%', 1],
    ['Confidence: 100', 1],
    ['Confidence:85 %', 0.85],
    ['**Confidence:** 40%', 0.4],
    ['Confidence: 30%\nConfidence: 90%', 0.3],
  ])('%j → %d', (raw, value) => {
    expect(extractConfidence(`Answer: x\n${raw}`)).toEqual({ confidence: value, confidenceMethod: 'confidence-line' });
  });

  it.each([['Answer: x'], ['Answer: x\nConfidence: high'], ['confidence: 80%']])('missing in %j → null', (raw) => {
    expect(extractConfidence(raw)).toEqual({ confidence: null, confidenceMethod: 'missing' });
  });

  it('keeps the raw text and finish reason in the sample', () => {
    const raw = 'Hmm.\nAnswer: Paris\nConfidence: 90%';
    expect(extractSample(raw, 'stop')).toEqual({
      raw, answer: 'Paris', answerMethod: 'answer-line', confidence: 0.9, confidenceMethod: 'confidence-line', finishReason: 'stop',
    });
  });
});

describe('generation prompt', () => {
  it('has the question slot and asks for the two final lines', () => {
    expect(validatePromptTemplate(DEFAULT_GENERATION_PROMPT).ok).toBe(true);
    expect(DEFAULT_GENERATION_PROMPT).toMatch(/Answer: .*\nConfidence: <0-100>%/);
  });

  it('rejects a template without {question}, saying where', () => {
    const r = validatePromptTemplate('Answer this.');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ kind: 'prompt', where: 'prompt template' });
    expect(r.ok || r.error.message).toMatch(/\{question\}/);
  });

  it('fills every slot literally (no $-patterns) and lists options with letters', () => {
    expect(fillPrompt('Q: {question} / {question}', { question: 'Cost in $&?' })).toBe('Q: Cost in $&? / Cost in $&?');
    expect(fillPrompt('{question}', { question: 'Pick one', options: ['red', 'blue'] })).toBe('Pick one\nA. red\nB. blue');
  });
});
