import { describe, expect, test } from 'vitest';
import { isRefusal, matchAliases } from '../../../src/grading/alias';
import { applyOverrides, type GradeOverride } from '../../../src/grading/overrides';
import { parseVerdict } from '../../../src/grading/judge';
import type { GradedRow } from '../../../src/model/rows';

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

describe('verdict parsing is strict', () => {
  test.each([
    ['CORRECT', 'CORRECT'],
    [' **incorrect**. ', 'INCORRECT'],
    ['NOT ATTEMPTED', 'NOT_ATTEMPTED'],
    ['"Not_Attempted"', 'NOT_ATTEMPTED'],
    ['Verdict: CORRECT', 'CORRECT'],
    ['CORRECT, because the answer matches', null],
    ['The answer is correct', null],
    ['INCORRECTLY', null],
    ['', null],
  ])('%j → %s', (reply, verdict) => {
    expect(parseVerdict(reply)).toBe(verdict);
  });
});

describe('manual overrides', () => {
  const computed: GradedRow[] = [
    { id: 'q1', model: 'm', question: 'Q1', gold_answer: 'a', modal_cluster_label: 'a', grade: 'CORRECT', Y: 1 },
    { id: 'q2', model: 'm', question: 'Q2', gold_answer: 'b', modal_cluster_label: 'c', grade: 'INCORRECT', Y: 0 },
    { id: 'q3', model: 'm', question: 'Q3', gold_answer: 'd', modal_cluster_label: 'e', grade: null, Y: null },
  ];
  const overrides: GradeOverride[] = [
    { id: 'q2', model: 'm', grade: 'NOT_ATTEMPTED', at: '2026-01-01T00:00:00Z' },
    { id: 'q2', model: 'm', grade: 'CORRECT', note: 'synonym', at: '2026-01-02T00:00:00Z' },
    { id: 'q3', model: 'm', grade: 'INCORRECT', at: '2026-01-01T00:00:00Z' },
    { id: 'q1', model: 'other-model', grade: 'INCORRECT', at: '2026-01-03T00:00:00Z' },
  ];

  test('the latest override of a row replaces grade and Y; the computed grade is kept beside it', () => {
    const out = applyOverrides(computed, overrides);
    expect(out[0]).toEqual(computed[0]);
    expect(out[1]).toMatchObject({ grade: 'CORRECT', Y: 1, override: { computedGrade: 'INCORRECT', note: 'synonym' } });
    expect(out[2]).toMatchObject({ grade: 'INCORRECT', Y: 0, override: { computedGrade: null } });
    expect(computed[1].grade).toBe('INCORRECT');
  });

  test('overrides survive regrading: new computed rows, same overrides, same result', () => {
    const regraded = computed.map((r) => ({ ...r, grade: 'INCORRECT' as const, Y: 0 as const }));
    const out = applyOverrides(regraded, overrides);
    expect(out.map((r) => r.grade)).toEqual(['INCORRECT', 'CORRECT', 'INCORRECT']);
  });
});
