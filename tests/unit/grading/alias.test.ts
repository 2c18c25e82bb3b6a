import { describe, expect, test } from 'vitest';
import { isRefusal, matchAliases } from '../../../src/grading/alias';

const item = (predicted: string, gold: string, aliases: string[] = [], options?: string[]) => ({ question: 'q', gold, aliases, predicted, options });

describe('alias matcher', () => {
  test.each([
    ['Eiffel Tower', 'The Eiffel Tower', [], 'CORRECT', 'exact'],
    ['eiffel-tower.', 'Eiffel Tower', [], 'CORRECT', 'exact'],
    ['Big Ben', 'Elizabeth Tower', ['Big Ben', 'Clock Tower'], 'CORRECT', 'exact'],
    ['It is the Eiffel Tower in Paris', 'Eiffel Tower', [], 'CORRECT', 'contains "eiffel tower"'],
    ['in 1969', '1969', [], 'CORRECT', 'contains "1969"'],
    ['1,000 meters', '1000', [], 'CORRECT', 'contains "1000"'],
    ['not Paris but Lyon', 'Paris', [], 'INCORRECT', 'no match'],
    ['Einstein', 'Albert Einstein', [], 'INCORRECT', 'no match'],
    ['19690', '1969', [], 'INCORRECT', 'no match'],
    ["I don't know", 'Paris', [], 'NOT_ATTEMPTED', 'refusal'],
    ['Not sure.', 'Paris', [], 'NOT_ATTEMPTED', 'refusal'],
    ['', 'Paris', [], 'NOT_ATTEMPTED', 'refusal'],
    ['N/A', 'Paris', [], 'NOT_ATTEMPTED', 'refusal'],
  ])('%j vs %j (aliases %j) → %s by %s', (predicted, gold, aliases, grade, rule) => {
    expect(matchAliases(item(predicted, gold, aliases))).toEqual({ grade, rule });
  });

  test('multiple choice: the chosen option against the gold option', () => {
    const options = ['Paris', 'Lyon', 'Nice'];
    expect(matchAliases(item('B', 'B', [], options))).toEqual({ grade: 'CORRECT', rule: 'option' });
    expect(matchAliases(item('Lyon', 'B', [], options))).toEqual({ grade: 'CORRECT', rule: 'option' });
    expect(matchAliases(item('(b) Lyon', 'Lyon', [], options))).toEqual({ grade: 'CORRECT', rule: 'option' });
    expect(matchAliases(item('A', 'B', [], options))).toEqual({ grade: 'INCORRECT', rule: 'other option' });
    expect(matchAliases(item('Toulouse', 'B', [], options))).toEqual({ grade: 'INCORRECT', rule: 'no option chosen' });
  });

  test('refusal detection does not catch real answers', () => {
    expect(isRefusal('None')).toBe(false);
    expect(isRefusal('Unknown Soldier')).toBe(false);
    expect(isRefusal('I cannot say for certain')).toBe(true);
  });
});
