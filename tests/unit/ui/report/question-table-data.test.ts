import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_QUERY, naturalKey, pageOf, queryRows } from '../../../../src/ui/report/question-table-data';
import type { ReportQuestion } from '../../../../src/model/report';

function q(id: string, over: Partial<ReportQuestion> = {}): ReportQuestion {
  return {
    id, question: `What is ${id}?`, gold: 'gold', n: 10, sem1: 0.5, sem2: 0.4, verbalized: 0.9, correct: 1, grade: 'CORRECT',
    margin: 0.2, stdMargin: 0.6, regime: 'low-margin', entropy: 0.5, nClasses: 2, modalLabel: 'Paris', ...over,
  };
}

const rows = [
  q('q10', { sem1: 0.9, correct: 0, grade: 'INCORRECT', regime: 'large-margin' }),
  q('q2', { sem1: NaN, modalLabel: 'Lyon' }),
  q('q1', { sem1: 0.3, overridden: true }),
];

describe('queryRows', () => {
  test('keeps document order by default; sorts ids naturally (q2 before q10); leaves the input untouched', () => {
    expect(queryRows(rows, DEFAULT_QUERY).map((r) => r.id)).toEqual(['q10', 'q2', 'q1']);
    expect(queryRows(rows, { ...DEFAULT_QUERY, descending: true }).map((r) => r.id)).toEqual(['q1', 'q2', 'q10']);
    expect(queryRows(rows, { ...DEFAULT_QUERY, sort: 'id' }).map((r) => r.id)).toEqual(['q1', 'q2', 'q10']);
    expect(queryRows(rows, { ...DEFAULT_QUERY, sort: 'id', descending: true }).map((r) => r.id)).toEqual(['q10', 'q2', 'q1']);
    expect(rows.map((r) => r.id)).toEqual(['q10', 'q2', 'q1']);
  });
  test('sorts by the modal answer and by the reference answer, case folded, ties in document order', () => {
    const answers = [q('a', { modalLabel: 'paris', gold: 'Zurich' }), q('b', { modalLabel: 'Berlin', gold: 'athens' }), q('c', { modalLabel: 'Paris', gold: 'Madrid' })];
    expect(queryRows(answers, { ...DEFAULT_QUERY, sort: 'modal' }).map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(queryRows(answers, { ...DEFAULT_QUERY, sort: 'gold' }).map((r) => r.id)).toEqual(['b', 'c', 'a']);
    expect(queryRows(answers, { ...DEFAULT_QUERY, sort: 'gold', descending: true }).map((r) => r.id)).toEqual(['a', 'c', 'b']);
  });
  test('numeric sort puts NaN last in both directions', () => {
    expect(queryRows(rows, { ...DEFAULT_QUERY, sort: 'sem1' }).map((r) => r.id)).toEqual(['q1', 'q10', 'q2']);
    expect(queryRows(rows, { ...DEFAULT_QUERY, sort: 'sem1', descending: true }).map((r) => r.id)).toEqual(['q10', 'q1', 'q2']);
  });
  test('filters by outcome, regime and override, and searches labels case-insensitively', () => {
    expect(queryRows(rows, { ...DEFAULT_QUERY, outcome: 'incorrect' }).map((r) => r.id)).toEqual(['q10']);
    expect(queryRows(rows, { ...DEFAULT_QUERY, outcome: 'correct' }).map((r) => r.id)).toEqual(['q2', 'q1']);
    expect(queryRows(rows, { ...DEFAULT_QUERY, regime: 'large-margin' }).map((r) => r.id)).toEqual(['q10']);
    expect(queryRows(rows, { ...DEFAULT_QUERY, outcome: 'overridden' }).map((r) => r.id)).toEqual(['q1']);
    expect(queryRows(rows, { ...DEFAULT_QUERY, search: ' lYON ' }).map((r) => r.id)).toEqual(['q2']);
  });
});

describe('naturalKey', () => {
  test('orders digit runs by value and ignores case and leading zeros', () => {
    const ids = ['Q10', 'q2', 'q02b', 'a100', 'a99', 'q1'];
    expect([...ids].sort((a, b) => (naturalKey(a) < naturalKey(b) ? -1 : naturalKey(a) > naturalKey(b) ? 1 : 0))).toEqual(['a99', 'a100', 'q1', 'q2', 'q02b', 'Q10']);
  });

  test('is the regex definition, written as a scan: on any text, digits and zeros especially', () => {
    const byRegex = (s: string) => s.toLowerCase().replace(/\d+/g, (d) => d.replace(/^0+(?=\d)/, '').padStart(16, '0'));
    for (const s of ['', '0', '00', '007', 'q007x', 'a0b00c000', '12345678901234567890', 'İstanbul 12', 'x1y22z333'] ) expect(naturalKey(s), s).toBe(byRegex(s));
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('0', '0', '1', '9', 'a', 'Q', ' ', '-', 'İ', 'ß') }), (s) => naturalKey(s) === byRegex(s)), { numRuns: 2000 });
    fc.assert(fc.property(fc.string(), (s) => naturalKey(s) === byRegex(s)), { numRuns: 500 });
  });
});

describe('pageOf', () => {
  const many = Array.from({ length: 105 }, (_, i) => i);
  test('slices pages and clamps out-of-range page numbers', () => {
    expect(pageOf(many, 0, 50).rows).toHaveLength(50);
    const last = pageOf(many, 99, 50);
    expect(last.page).toBe(2);
    expect(last.rows).toEqual([100, 101, 102, 103, 104]);
    expect(pageOf([], 3, 50)).toMatchObject({ page: 0, pages: 1, total: 0 });
  });
});
