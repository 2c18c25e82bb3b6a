import { describe, expect, test } from 'vitest';
import { firstRowPerId, gradeToY } from '../../../src/model/rows';

describe('first row per id wins', () => {
  test('later rows with an id are dropped, in order, each reported with the first', () => {
    const rows = [{ id: 'a', v: 1 }, { id: 'b', v: 2 }, { id: 'a', v: 3 }, { id: 'c', v: 4 }, { id: 'b', v: 5 }];
    const repeats: [number, number][] = [];
    const kept = firstRowPerId(rows, (r) => r.id, (r, first) => repeats.push([r.v, first.v]));
    expect(kept.map((r) => r.v)).toEqual([1, 2, 4]);
    expect(repeats).toEqual([[3, 1], [5, 2]]);
    expect(firstRowPerId(rows).map((r) => r.v)).toEqual([1, 2, 4]);
    expect(firstRowPerId([])).toEqual([]);
  });

  test('any key: rows located by line', () => {
    const located = [{ row: { id: 'x' }, line: 1 }, { row: { id: 'x' }, line: 4 }];
    expect(firstRowPerId(located, (l) => l.row.id).map((l) => l.line)).toEqual([1]);
  });
});

describe("a grade's Y", () => {
  test('1 only for CORRECT; null stays null', () => {
    expect(gradeToY('CORRECT')).toBe(1);
    expect(gradeToY('INCORRECT')).toBe(0);
    expect(gradeToY('NOT_ATTEMPTED')).toBe(0);
    expect(gradeToY(null)).toBeNull();
  });
});
