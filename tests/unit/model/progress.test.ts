/**
 * The one progress shape: every step that is not a run (opening a report, a hub dataset, a batch)
 * reports it, so one percentage rule serves them all.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import { progressPercent, type Progress } from '../../../src/model/progress';
import type { ImportProgress } from '../../../src/formats/import-progress';
import type { HubProgress } from '../../../src/hub/hub-files';
import type { BatchProgress } from '../../../src/workers/batch.worker';

describe('progressPercent', () => {
  test('whole percentages, rounded down, never past 100', () => {
    expect(progressPercent({ phase: 'reading', done: 1, total: 3 })).toBe(33);
    expect(progressPercent({ phase: 'reading', done: 3, total: 3 })).toBe(100);
    expect(progressPercent({ phase: 'reading', done: 5, total: 3 })).toBe(100);
    expect(progressPercent({ phase: 'reading', done: 0, total: 3 })).toBe(0);
  });

  test('null where the phase cannot count', () => {
    expect(progressPercent({ phase: 'parsing' })).toBeNull();
    expect(progressPercent({ phase: 'parsing', total: 10 })).toBeNull();
    expect(progressPercent({ phase: 'listing', done: 0, total: 0 })).toBeNull();
  });
});

test('the import, hub and batch progress are the one shape', () => {
  expectTypeOf<ImportProgress>().toMatchTypeOf<Progress>();
  expectTypeOf<HubProgress>().toMatchTypeOf<Progress>();
  expectTypeOf<BatchProgress>().toMatchTypeOf<Progress>();
  const hub: HubProgress = { phase: 'downloading', item: 'a.parquet', done: 5, total: 10, unit: 'bytes', cached: 0 };
  expect(progressPercent(hub)).toBe(50);
});
