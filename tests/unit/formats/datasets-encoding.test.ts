import { describe, expect, test } from 'vitest';
import { MAX_DATASET_BYTES, decodeDatasetBytes, readDataset } from '../../../src/formats/datasets.ts';
import { detectEncoding, readDatasetFile } from '../../../src/formats/datasets/encoding.ts';

const CSV = 'question,answer\nCapital of Peru?,Lima\nWho wrote "Emma"?,Jane Austen\nCafé owner?,Zoë\n';
const JSONL = '{"question":"Capital of Peru?","answer":"Lima"}\n{"question":"Café owner?","answer":"Zoë"}\n';
const QUESTIONS = ['Capital of Peru?', 'Who wrote "Emma"?', 'Café owner?'];

function utf16(text: string, order: 'le' | 'be', bom = true): Uint8Array {
  const out = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
  const units = [...(bom ? [0xfeff] : []), ...Array.from(text, (_, i) => text.charCodeAt(i))];
  units.forEach((u, i) => {
    out[2 * i + (order === 'le' ? 0 : 1)] = u & 0xff;
    out[2 * i + (order === 'le' ? 1 : 0)] = u >> 8;
  });
  return out;
}
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('dataset file encodings', () => {
  test('a UTF-8 BOM is accepted in a JSON-array dataset, as text and as bytes', () => {
    const json = '\uFEFF[{"question":"Capital of Peru?","answer":"Lima"}]';
    for (const content of [json, utf8(json)]) {
      const r = readDataset(content, 'd.json');
      expect(r.ok && r.value.dataset.questions).toEqual([{ id: 'q0001', question: 'Capital of Peru?', answer: 'Lima' }]);
    }
    expect(Array.from(utf8(json).slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
  });

  test('UTF-16 LE and BE CSV with a BOM are decoded, accents and quotes intact', () => {
    for (const order of ['le', 'be'] as const) {
      const r = readDataset(utf16(CSV, order), 'd.csv');
      expect(r.ok && r.value.dataset.questions.map((q) => q.question)).toEqual(QUESTIONS);
      expect(r.ok && r.value.dataset.questions[2].answer).toBe('Zoë');
    }
  });

  test('UTF-16 LE JSONL is decoded, with a BOM or without one', () => {
    expect(detectEncoding(utf16(JSONL, 'le', false))).toBe('utf-16le');
    for (const bom of [true, false]) {
      const r = readDataset(utf16(JSONL, 'le', bom), 'd.jsonl');
      expect(r.ok && r.value.dataset.questions).toEqual([
        { id: 'q0001', question: 'Capital of Peru?', answer: 'Lima' },
        { id: 'q0002', question: 'Café owner?', answer: 'Zoë' },
      ]);
    }
  });

  test('plain UTF-8 bytes read as before', () => {
    expect(detectEncoding(utf8(CSV))).toBe('utf-8');
    const r = readDataset(utf8(CSV), 'd.csv');
    expect(r.ok && r.value.dataset.questions.map((q) => q.question)).toEqual(QUESTIONS);
  });

  test('UTF-16 that was already read as UTF-8 is named, not "Too few fields"', () => {
    const misread = new TextDecoder('utf-8').decode(utf16(CSV, 'le'));
    const r = readDataset(misread, 'd.csv');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toMatch(/d\.csv looks like UTF-16 .*save it as UTF-8/);
      expect(r.error.where).toBe('d.csv');
    }
  });

  test('a file over the size limit is refused with its name and size', () => {
    const big = new Uint8Array(MAX_DATASET_BYTES + 1024 * 1024).fill(0x61);
    const r = decodeDatasetBytes(big, 'huge.csv');
    expect(r).toEqual({ ok: false, error: { kind: 'dataset', message: 'huge.csv is 65.0 MB; a dataset file may be at most 64.0 MB.', where: 'huge.csv' } });
    const read = readDataset(big, 'huge.csv');
    expect(!read.ok && read.error.message).toBe('huge.csv is 65.0 MB; a dataset file may be at most 64.0 MB.');
    // Text is measured in UTF-8 bytes: 22 Mi three-byte characters are 66 MB although the string is shorter than the limit.
    const wide = '€'.repeat(22 * 1024 * 1024);
    expect(wide.length).toBeLessThan(MAX_DATASET_BYTES);
    const text = readDataset(wide, 'wide.csv');
    expect(!text.ok && text.error.message).toBe('wide.csv is 66.0 MB; a dataset file may be at most 64.0 MB.');
  });
});

/** The same two questions in every format a dataset may come in. */
const FORMATS: Record<string, string> = {
  'd.csv': 'question,answer\r\nCapital of Peru?,Lima\r\nCafé owner?,Zoë\r\n',
  'd.tsv': 'question\tanswer\nCapital of Peru?\tLima\nCafé owner?\tZoë\n',
  'd.jsonl': JSONL,
  'd.json': '[{"question":"Capital of Peru?","answer":"Lima"},{"question":"Café owner?","answer":"Zoë"}]',
};
const TWO = [
  { id: 'q0001', question: 'Capital of Peru?', answer: 'Lima' },
  { id: 'q0002', question: 'Café owner?', answer: 'Zoë' },
];

describe('every reader (CSV, TSV, JSONL, JSON array) takes every supported encoding', () => {
  test.each(Object.keys(FORMATS))('%s with a UTF-8 BOM, as text and as bytes', (name) => {
    const text = '\uFEFF' + FORMATS[name];
    for (const content of [text, utf8(text)]) {
      const r = readDataset(content, name);
      expect(r.ok ? r.value.dataset.questions : r.error).toEqual(TWO);
      // The BOM must not end up in the first column's name.
      expect(r.ok && r.value.dataset.questions[0].question).toBe('Capital of Peru?');
    }
  });

  test.each(Object.keys(FORMATS))('%s in UTF-16 LE and BE with a BOM', (name) => {
    for (const order of ['le', 'be'] as const) {
      const r = readDataset(utf16(FORMATS[name], order), name);
      expect(r.ok ? r.value.dataset.questions : r.error).toEqual(TWO);
    }
  });

  test('UTF-32 (LE or BE BOM) is named as unsupported', () => {
    const le = new Uint8Array([0xff, 0xfe, 0, 0, 0x71, 0, 0, 0]);
    const be = new Uint8Array([0, 0, 0xfe, 0xff, 0, 0, 0, 0x71]);
    for (const bytes of [le, be]) {
      const r = readDataset(bytes, 'wide.csv');
      expect(!r.ok && r.error.message).toBe('wide.csv is UTF-32 text, which is not supported here: save it as UTF-8.');
    }
  });
});

describe('readDatasetFile: a file the user picks', () => {
  test('over the limit: refused by its size, naming file and size, without being read', async () => {
    let read = false;
    const file = {
      name: 'questions.csv',
      size: Math.round(612.4 * 1024 * 1024),
      arrayBuffer: async () => {
        read = true;
        return new ArrayBuffer(0);
      },
    };
    const r = await readDatasetFile(file);
    expect(r).toEqual({ ok: false, error: { kind: 'dataset', message: 'questions.csv is 612.4 MB; a dataset file may be at most 64.0 MB.', where: 'questions.csv' } });
    expect(read).toBe(false);
  });

  test('within it: decoded by its BOM, like bytes given directly', async () => {
    const r = await readDatasetFile(new File([new Uint8Array(utf16(FORMATS['d.csv'], 'be'))], 'd.csv'));
    expect(r).toEqual({ ok: true, value: FORMATS['d.csv'] });
  });

  test('a file that cannot be read is named', async () => {
    const r = await readDatasetFile({ name: 'gone.csv', size: 10, arrayBuffer: () => Promise.reject(new Error('NotFoundError')) });
    expect(!r.ok && r.error.message).toBe('gone.csv could not be read: NotFoundError');
  });
});

describe('a binary file picked as a dataset is named for what it is', () => {
  test.each([
    [[0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0], /^book\.csv is a ZIP archive \(an Excel or OpenDocument workbook\?\), not text: save it as CSV \(UTF-8\)\.$/],
    [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], /^book\.csv is an old-style Excel workbook \(\.xls\)/],
    [[0x50, 0x41, 0x52, 0x31, 0x15, 0x04], /^book\.csv is a Parquet file, .*convert it to CSV or JSONL\.$/],
    [[0x1f, 0x8b, 0x08, 0], /^book\.csv is gzip-compressed: uncompress it first\.$/],
    [[0x71, 0x2c, 0x61, 0x0a, 0x00, 0x01, 0x00, 0x00, 0xff, 0x00, 0x7f, 0x00], /^book\.csv is not a text file \(it holds zero bytes\)/],
  ])('%j', (bytes, message) => {
    const r = readDataset(new Uint8Array(bytes), 'book.csv');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatchObject({ kind: 'dataset', where: 'book.csv' });
    expect(!r.ok && r.error.message).toMatch(message);
  });

  test('text that merely starts like a magic number is still text', () => {
    const r = readDataset(utf8('PK,question,answer\n1,Capital of Peru?,Lima\n'), 'pk.csv');
    expect(r.ok && r.value.dataset.questions.map((q) => q.question)).toEqual(['Capital of Peru?']);
  });
});
