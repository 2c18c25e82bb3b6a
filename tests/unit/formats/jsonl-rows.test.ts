import { expect, test } from 'vitest';
import { parseJsonl } from '../../../src/formats/jsonl-rows';

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
