import { describe, expect, test } from 'vitest';
import { parquetMetadata } from 'hyparquet';
import { MAX_DATASET_ROWS, MAX_PARQUET_DECODED_BYTES, looksLikeParquet, parquetBoundProblem, parquetTable } from '../../../../src/formats/datasets/parquet';
import { parquet, parquetDeclaringRows, parquetWithFooter } from '../../../mock/hub-datasets';

test('Parquet rows become JSON-like records: int64 as numbers (text past 2^53), nested structs and lists kept', async () => {
  const bytes = parquet([
    { name: 'id', data: [1n, 9007199254740993n], type: 'INT64' },
    { name: 'answer', data: [{ value: 'x', aliases: ['y'] }, { value: 'z', aliases: [] }] },
    { name: 'tags', data: [['a', 'b'], []] },
  ]);
  const t = await parquetTable(bytes, 'f.parquet', 10);
  if (!t.ok) throw new Error(t.error.message);
  expect(t.value.format).toBe('parquet');
  expect(t.value.columns).toEqual(['id', 'answer', 'tags']);
  expect(t.value.rows).toEqual([
    { row: 11, where: 'f.parquet row 1', record: { id: 1, answer: { value: 'x', aliases: ['y'] }, tags: ['a', 'b'] } },
    { row: 12, where: 'f.parquet row 2', record: { id: '9007199254740993', answer: { value: 'z', aliases: [] }, tags: [] } },
  ]);
});

test('bytes that are not a whole Parquet file are refused with what to do, whichever end is missing', async () => {
  const bytes = parquet([{ name: 'q', data: ['a'], type: 'STRING' }]);
  expect(looksLikeParquet(bytes)).toBe(true);
  for (const cut of [bytes.slice(0, bytes.length - 1), bytes.slice(4), new TextEncoder().encode('question,answer\n')]) {
    const t = await parquetTable(cut, 'cut.parquet');
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.error).toMatchObject({ kind: 'dataset', where: 'cut.parquet', message: expect.stringMatching(/Not a complete Parquet file/) });
  }
  // Markers at both ends but a broken footer: hyparquet's complaint, named.
  const broken = new Uint8Array([...bytes.slice(0, 4), ...new Uint8Array(20), ...bytes.slice(bytes.length - 8)]);
  const t = await parquetTable(broken, 'broken.parquet');
  expect(!t.ok && t.error.message).toMatch(/Could not read this Parquet file/);
});

describe('a footer past the bounds is refused before anything is decoded', () => {
  test('declared rows: a file of a few hundred bytes declaring 12 million rows, named with its count and the bound', async () => {
    const bytes = parquetDeclaringRows(12_000_000n);
    expect(bytes.length).toBeLessThan(1000);
    const t = await parquetTable(bytes, 'huge.parquet');
    expect(t.ok).toBe(false);
    if (!t.ok) {
      expect(t.error).toMatchObject({ kind: 'dataset', where: 'huge.parquet' });
      expect(t.error.message).toBe('huge.parquet declares 12,000,000 rows; a dataset may have at most 1,000,000 rows (no report holds more questions). Choose a smaller split or file.');
    }
  });

  test('the bound is on the rows of the whole split: earlier shards count, and exactly the bound passes', () => {
    const at = parquetMetadata(parquetDeclaringRows(BigInt(MAX_DATASET_ROWS)).slice().buffer);
    expect(parquetBoundProblem(at, 'f.parquet', 0)).toBeUndefined();
    expect(parquetBoundProblem(at, 'f.parquet', 1)).toMatch(/^f\.parquet declares 1,000,000 rows \(after 1 in the split's earlier files\); a dataset may have at most 1,000,000 rows/);
    // A footer whose own count is small but whose row groups say more: the larger is believed.
    const groups = parquetMetadata(parquetWithFooter([{ name: 'q', data: ['a'], type: 'STRING' }], (f) => (f.row_groups[0].num_rows = 2_000_000n)).slice().buffer);
    expect(parquetBoundProblem(groups, 'g.parquet', 0)).toMatch(/declares 2,000,000 rows/);
  });

  test('uncompressed bytes count only the columns read: a huge column left unread does not stop the rest', async () => {
    const bytes = parquetWithFooter(
      [
        { name: 'question', data: ['Q?'], type: 'STRING' },
        { name: 'answer', data: ['A'], type: 'STRING' },
        { name: 'image', data: ['x'], type: 'STRING' },
      ],
      (f) => (f.row_groups[0].columns[2].meta_data!.total_uncompressed_size = BigInt(MAX_PARQUET_DECODED_BYTES) + 1n),
    );
    const all = await parquetTable(bytes, 'wide.parquet');
    expect(!all.ok && all.error.message).toBe('wide.parquet holds 257 MB once uncompressed; at most 256 MB is decoded. Choose a smaller split or file.');
    const some = await parquetTable(bytes, 'wide.parquet', 0, { columns: ['question', 'answer', 'not-there'] });
    if (!some.ok) throw new Error(some.error.message);
    expect(some.value.rows.map((r) => r.record)).toEqual([{ question: 'Q?', answer: 'A' }]);
    // The table still names every column, for a mapping's complaint.
    expect(some.value.columns).toEqual(['question', 'answer', 'image']);
  });
});
