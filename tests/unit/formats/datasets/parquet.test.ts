import { expect, test } from 'vitest';
import { looksLikeParquet, parquetTable } from '../../../../src/formats/datasets/parquet';
import { parquet } from '../../../mock/hub-datasets';

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
