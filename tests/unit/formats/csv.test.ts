import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import Papa from 'papaparse';
import { csvCell, looksLikeFormula, toCsv } from '../../../src/formats/csv';

/** What a reader (papaparse, as a spreadsheet would) gets back from the text. */
function parse(text: string): string[][] {
  const parsed = Papa.parse<string[]>(text, { delimiter: ',', newline: '\r\n', quoteChar: '"' });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

/**
 * The rule, written independently of the writer: a cell whose first character is a tab or CR,
 * or whose first character after any leading whitespace, control or invisible format characters
 * (zero-width space, BOM, \x1c) is =, +, - or @, could run as a formula.
 */
function dangerous(cell: string): boolean {
  return /^[\t\r]/.test(cell) || /^[\s\p{Cc}\p{Cf}]*[=+\-@]/u.test(cell);
}

/** Cells built from the characters that matter here: formula starts, whitespace, quotes, separators. */
const trickyCell = fc
  .array(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\r\n', ' ', '"', ',', "'", 'a', '1', 'é', '😀', '\u00a0', '\u200b', '\x1c', '\ufeff', 'SUM(A1)'), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));
const anyCell = fc.oneof(trickyCell, fc.string({ unit: 'grapheme', maxLength: 20 }));

describe('csvCell', () => {
  test.each([
    ['=1+1\nx', `"'=1+1\nx"`],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\rx', `"'\rx"`],
    ['  =1', "'  =1"],
    [' x ', '" x "'],
    ['\n\n=HYPERLINK("http://x")', `"'\n\n=HYPERLINK(""http://x"")"`],
    ['a=1', 'a=1'],
    ['\u200b=1+1', "'\u200b=1+1"],
    ['\x1c=1+1', "'\x1c=1+1"],
    ['\ufeff@SUM(A1)', "'\ufeff@SUM(A1)"],
    ['a, "b"', '"a, ""b"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['', ''],
  ])('%j is written as %j', (cell, written) => {
    expect(csvCell(cell)).toBe(written);
  });

  test('numbers are written as numbers, negative ones too; non-finite ones as empty cells', () => {
    expect(csvCell(-0.25)).toBe('-0.25');
    expect(csvCell(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});

describe('toCsv', () => {
  test('any table parses back to the same cells, formula-like ones prefixed with an apostrophe', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((width) =>
          fc.tuple(fc.array(anyCell, { minLength: width, maxLength: width }), fc.array(fc.array(anyCell, { minLength: width, maxLength: width }), { maxLength: 5 })),
        ),
        ([fields, rows]) => {
          const back = parse(toCsv(fields, rows));
          const expected = [fields, ...rows].map((row) => row.map((cell) => (dangerous(cell) ? `'${cell}` : cell)));
          expect(back).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('no cell a reader gets back can start a formula', () => {
    fc.assert(
      fc.property(fc.array(trickyCell, { minLength: 2, maxLength: 6 }), (cells) => {
        for (const cell of parse(toCsv(['a', 'b'], [cells.slice(0, 2)]))[1]) {
          expect(dangerous(cell)).toBe(false);
          expect(looksLikeFormula(cell)).toBe(false);
        }
      }),
    );
  });

  test('rows are separated by CRLF, with no line break after the last', () => {
    expect(toCsv(['a', 'b'], [[1, 'x'], [2, 'y']])).toBe('a,b\r\n1,x\r\n2,y');
    expect(parse(toCsv(['only'], [[''], ['x']]))).toEqual([['only'], [''], ['x']]);
  });
});
