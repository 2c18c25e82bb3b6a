import { expect, test } from 'vitest';
import { jsonObjectOf, parseJsonl, parseJsonlLine } from '../../../src/formats/jsonl-rows';
import { FieldError, type Obj } from '../../../src/formats/authors-fields';

const readRow = (obj: Record<string, unknown>) => ({ id: String(obj.id) });
const TEXT = '{"id": "q1"}\n{"id": "q2"}\n';

/** What `readFile(path, 'utf8')` gives for a file saved as UTF-16 LE or BE with a BOM. */
function utf16ReadAsUtf8(text: string, order: 'utf16le' | 'be'): string {
  const le = Buffer.from('\uFEFF' + text, 'utf16le');
  if (order === 'be') for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
  return le.toString('utf8');
}

test('a UTF-8 byte order mark is dropped', () => {
  const r = parseJsonl('\uFEFF' + TEXT, 'c.jsonl', readRow);
  expect(r.ok && r.value.rows.map((x) => x.row.id)).toEqual(['q1', 'q2']);
});

test('UTF-16 (LE or BE) read as UTF-8 is named, not "bad JSON" on line 1', () => {
  for (const order of ['utf16le', 'be'] as const) {
    const r = parseJsonl(utf16ReadAsUtf8(TEXT, order), 'c.jsonl', readRow);
    expect(r).toEqual({
      ok: false,
      error: { kind: 'bad-input', message: 'c.jsonl: looks like UTF-16 text, which is not supported here: save it as UTF-8', where: 'c.jsonl' },
    });
  }
});

test('an error the row reader does not expect still names the file and the line', () => {
  const overflowing = (obj: Record<string, unknown>) => {
    if (obj.id === 'q2') throw new RangeError('Maximum call stack size exceeded');
    return { id: String(obj.id) };
  };
  expect(() => parseJsonl(TEXT, 'c.jsonl', overflowing)).toThrow('c.jsonl, line 2: Maximum call stack size exceeded');
});

/** The text cut at the given offsets, as a file too long for one string is read. */
const cut = (text: string, at: number[]): string[] => {
  const points = [...new Set(at.map((a) => Math.min(a, text.length)))].sort((a, b) => a - b);
  return [0, ...points].map((from, i) => text.slice(from, points[i] ?? text.length));
};

test('text given in chunks, wherever they are cut, or as its lines reads the same as one string: rows, lines, duplicates, errors', async () => {
  const fc = (await import('fast-check')).default;
  const line = fc.oneof(
    fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), v: fc.string() }).map((o) => JSON.stringify(o)),
    fc.constantFrom('', '   ', '{"id":"e"}\r', '[1]', '{"id":', '"x"'),
  );
  const text = fc.tuple(fc.boolean(), fc.array(line, { maxLength: 12 }), fc.boolean()).map(([bom, lines, end]) => (bom ? '\uFEFF' : '') + lines.join('\n') + (end ? '\n' : ''));
  fc.assert(
    fc.property(text, fc.array(fc.nat(400), { maxLength: 6 }), (t, at) => {
      expect(parseJsonl(cut(t, at), 'c.jsonl', readRow)).toEqual(parseJsonl(t, 'c.jsonl', readRow));
      // The same text given as its lines (as the CLI decodes them from the file's bytes).
      expect(parseJsonl({ lines: t.split('\n') }, 'c.jsonl', readRow)).toEqual(parseJsonl(t, 'c.jsonl', readRow));
    }),
    { numRuns: 400 },
  );
});

test('chunks: UTF-16 read as UTF-8 is named from the first chunk; no chunks at all is a file with no rows', () => {
  const r = parseJsonl(cut(utf16ReadAsUtf8(TEXT, 'utf16le'), [3, 9]), 'c.jsonl', readRow);
  expect(!r.ok && r.error.message).toBe('c.jsonl: looks like UTF-16 text, which is not supported here: save it as UTF-8');
  expect(parseJsonl([], 'c.jsonl', readRow)).toEqual(parseJsonl('', 'c.jsonl', readRow));
  const lines = parseJsonl({ lines: utf16ReadAsUtf8(TEXT, 'be').split('\n') }, 'c.jsonl', readRow);
  expect(!lines.ok && lines.error.message).toBe('c.jsonl: looks like UTF-16 text, which is not supported here: save it as UTF-8');
  expect(parseJsonl({ lines: [] }, 'c.jsonl', readRow)).toEqual(parseJsonl('', 'c.jsonl', readRow));
});

test('parseJsonlLine, the line every JSONL reader reads: blank, a row, or what is wrong in words; a reader’s own bug passes through', () => {
  const ids = (obj: Obj) => {
    if (typeof obj.id !== 'string') throw new FieldError('"id" must be a string');
    return obj.id;
  };
  expect(parseJsonlLine(' \t\r', ids)).toBeNull();
  expect(parseJsonlLine('{"id": "q1"}\r', ids)).toEqual({ ok: true, value: 'q1' });
  expect(parseJsonlLine('{"id": ', ids)).toMatchObject({ ok: false, message: expect.stringMatching(/^bad JSON \(/) });
  expect(parseJsonlLine('"q1"', ids)).toEqual({ ok: false, message: 'expected a JSON object, got the string "q1"' });
  expect(parseJsonlLine('{"id": 3}', ids)).toEqual({ ok: false, message: '"id" must be a string' });
  expect(() => parseJsonlLine('{}', () => { throw new TypeError('a bug'); })).toThrow(TypeError);
  // The caches' reading: an object, else nothing (blank, torn, an array).
  expect(jsonObjectOf('{"key": "k"}')).toEqual({ key: 'k' });
  expect([jsonObjectOf(''), jsonObjectOf('{"key": "k'), jsonObjectOf('[1]')]).toEqual([undefined, undefined, undefined]);
});
