import { expect, test } from 'vitest';
import { describeImportProgress } from '../../../src/formats/import-progress';

test('the status words: a share of bytes, a size, a count of rows, or the phase alone', () => {
  expect(describeImportProgress({ phase: 'inflating', done: 0, total: 800_000, unit: 'bytes' })).toBe('unpacking the link, 0%');
  expect(describeImportProgress({ phase: 'reading', done: 3, total: 4, unit: 'bytes' })).toBe('reading the file, 75%');
  // Never past 100 %, never rounded up to it before the end.
  expect(describeImportProgress({ phase: 'reading', done: 999, total: 1000, unit: 'bytes' })).toBe('reading the file, 99%');
  expect(describeImportProgress({ phase: 'reading', done: 2000, total: 1000, unit: 'bytes' })).toBe('reading the file, 100%');
  expect(describeImportProgress({ phase: 'parsing', total: 15 * 1024 * 1024, unit: 'bytes' })).toBe('parsing 15.0 MB');
  expect(describeImportProgress({ phase: 'parsing', total: 300, unit: 'bytes' })).toBe('parsing 1 KB');
  expect(describeImportProgress({ phase: 'validating', total: 177_000, unit: 'rows' })).toBe('checking 177,000 rows');
  expect(describeImportProgress({ phase: 'validating', total: 0, unit: 'rows' })).toBe('checking');
  expect(describeImportProgress({ phase: 'parsing' })).toBe('parsing');
});
