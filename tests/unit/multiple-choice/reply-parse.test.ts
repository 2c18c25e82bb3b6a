import { describe, expect, test } from 'vitest';
import { answerLetter, firstJsonObject, parseMcReply, statedPercent } from '../../../src/multiple-choice/reply-parse';
import { buildMcMessages, toMcQuestion } from '../../../src/multiple-choice/prompt';

describe('parseMcReply: tolerant reading', () => {
  test('plain JSON', () => {
    expect(parseMcReply('{"answer": "B", "probability": 85}', 4)).toEqual({ ok: true, index: 1, letter: 'B', probability: 0.85, method: 'json' });
  });
  test('code fence and surrounding text', () => {
    const r = parseMcReply('Sure! Here it is:\n```json\n{"answer": "(C)", "probability": "70%"}\n```\nGood luck.', 4);
    expect(r).toMatchObject({ ok: true, letter: 'C', index: 2, probability: 0.7 });
  });
  test('JSON embedded in prose, braces inside strings do not confuse it', () => {
    const r = parseMcReply('I think {not json} then {"note": "a } b", "answer": "d", "probability": 40.5} done', 4);
    expect(r).toMatchObject({ ok: true, letter: 'D', probability: 0.405 });
  });
  test('broken JSON falls back to loose key matching', () => {
    const r = parseMcReply('{"answer": "A", "probability": 90,}', 4);
    expect(r).toMatchObject({ ok: true, letter: 'A', probability: 0.9, method: 'loose' });
  });
  test('answer letter forms', () => {
    for (const v of ['B', '(B)', 'b', 'B)', 'B.', 'Option B', 'B) Paris']) expect(answerLetter(v)).toBe('B');
    for (const v of ['Paris', 'AB', '', 2, null]) expect(answerLetter(v)).toBeNull();
  });
  test('probability forms', () => {
    expect(statedPercent(85)).toBe(85);
    expect(statedPercent('85%')).toBe(85);
    expect(statedPercent(' 85.5 % ')).toBe(85.5);
    expect(statedPercent('high')).toBeNull();
    expect(statedPercent(Number.NaN)).toBeNull();
  });
  test('firstJsonObject skips brace runs that are not JSON', () => {
    expect(firstJsonObject('a {b} {"x": 1}')).toBe('{"x": 1}');
    expect(firstJsonObject('no braces')).toBeNull();
  });
});

describe('parseMcReply: strict validation', () => {
  test('letter outside the options', () => {
    expect(parseMcReply('{"answer": "E", "probability": 50}', 4)).toMatchObject({ ok: false, reason: 'letter-out-of-range' });
    expect(parseMcReply('{"answer": "C", "probability": 50}', 2)).toMatchObject({ ok: false, reason: 'letter-out-of-range' });
  });
  test('probability missing or out of range', () => {
    expect(parseMcReply('{"answer": "A"}', 4)).toMatchObject({ ok: false, reason: 'no-probability' });
    expect(parseMcReply('{"answer": "A", "probability": 120}', 4)).toMatchObject({ ok: false, reason: 'probability-out-of-range' });
    expect(parseMcReply('{"answer": "A", "probability": -1}', 4)).toMatchObject({ ok: false, reason: 'probability-out-of-range' });
  });
  test('refusals and unparsable replies', () => {
    expect(parseMcReply("I'm sorry, but I can't determine that.", 4)).toMatchObject({ ok: false, reason: 'refusal' });
    expect(parseMcReply('{"answer": null, "probability": 0}', 4)).toMatchObject({ ok: false, reason: 'refusal' });
    expect(parseMcReply('{"answer": "unknown", "probability": 25}', 4)).toMatchObject({ ok: false, reason: 'refusal' });
    expect(parseMcReply('The capital is Paris.', 4)).toMatchObject({ ok: false, reason: 'no-answer' });
    expect(parseMcReply('   ', 4)).toMatchObject({ ok: false, reason: 'empty' });
  });
});

describe('multiple-choice questions and prompt', () => {
  test('gold given as letter or as option text', () => {
    const byLetter = toMcQuestion({ id: 'q', question: 'Q?', answer: '(c)', options: ['x', 'y', 'z'] });
    expect(byLetter).toMatchObject({ ok: true, value: { gold: 2, letters: ['A', 'B', 'C'] } });
    const byText = toMcQuestion({ id: 'q', question: 'Q?', answer: ' Y ', options: ['x', 'y', 'z'], category: 'math' });
    expect(byText).toMatchObject({ ok: true, value: { gold: 1, category: 'math' } });
  });
  test('bad questions are refused with the question named', () => {
    const one = toMcQuestion({ id: 'q7', question: 'Q?', answer: 'A', options: ['x'] });
    expect(one.ok).toBe(false);
    if (!one.ok) expect(one.error).toMatchObject({ kind: 'bad-question', where: 'question "q7"' });
    const eleven = toMcQuestion({ id: 'q8', question: 'Q?', answer: 'A', options: Array.from({ length: 11 }, (_, i) => `o${i}`) });
    expect(eleven.ok).toBe(false);
    const noGold = toMcQuestion({ id: 'q9', question: 'Q?', answer: 'w', options: ['x', 'y'] });
    expect(noGold.ok).toBe(false);
    if (!noGold.ok) expect(noGold.error.message).toContain('"w"');
  });
  test('the prompt lists the options with letters and asks for the JSON form', () => {
    const q = toMcQuestion({ id: 'q', question: 'Which?', answer: 'A', options: ['one', 'two', 'three', 'four'] });
    if (!q.ok) throw new Error('fixture');
    const [m] = buildMcMessages(q.value);
    expect(m.role).toBe('user');
    expect(m.content).toContain('A) one\nB) two\nC) three\nD) four');
    expect(m.content).toContain('{"answer": "<letter>", "probability": <number from 0 to 100>}');
    expect(m.content).toContain('25 means you are guessing at random among the 4 options');
  });
});
