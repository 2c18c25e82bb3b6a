import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { BATCH_MAX_DELAY_MS, BATCH_MAX_ITEMS, BatchWriter } from '../../../src/model/write-batcher';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A writer whose transactions commit only when the test says so. */
function recording() {
  const batches: number[][] = [];
  const commits: (() => void)[] = [];
  const writer = new BatchWriter<number>((items) => {
    batches.push(items);
    return new Promise<void>((resolve) => commits.push(resolve));
  });
  return { writer, batches, commits };
}

test('the bound a reload can lose is short: a lone item is written after BATCH_MAX_DELAY_MS (≤ 100 ms), not later', async () => {
  expect(BATCH_MAX_DELAY_MS).toBeLessThanOrEqual(100);
  const { writer, batches } = recording();
  void writer.add([1]);
  await vi.advanceTimersByTimeAsync(BATCH_MAX_DELAY_MS - 1);
  expect(batches).toEqual([]);
  void writer.add([2]);
  await vi.advanceTimersByTimeAsync(1);
  // The timer runs from the first queued item: the second rides along, it does not restart it.
  expect(batches).toEqual([[1, 2]]);
});

test('K items are written at once, without waiting for the timer', async () => {
  const { writer, batches } = recording();
  void writer.add(Array.from({ length: BATCH_MAX_ITEMS }, (_, i) => i));
  await vi.advanceTimersByTimeAsync(0);
  expect(batches).toHaveLength(1);
  expect(batches[0]).toHaveLength(BATCH_MAX_ITEMS);
});

test('flush writes at once; a caller is released only when its own batch commits', async () => {
  const { writer, batches, commits } = recording();
  let firstStored = false;
  let secondStored = false;
  void writer.add([1]).then(() => (firstStored = true));
  void writer.flush();
  await vi.advanceTimersByTimeAsync(0);
  expect(batches).toEqual([[1]]);
  void writer.add([2]).then(() => (secondStored = true));
  void writer.flush();
  await vi.advanceTimersByTimeAsync(BATCH_MAX_DELAY_MS * 5);
  // One transaction at a time, in order: the second waits for the first to commit.
  expect(batches).toEqual([[1]]);
  commits[0]();
  await vi.advanceTimersByTimeAsync(0);
  expect(firstStored).toBe(true);
  expect(batches).toEqual([[1], [2]]);
  expect(secondStored).toBe(false);
  commits[1]();
  await vi.advanceTimersByTimeAsync(0);
  expect(secondStored).toBe(true);
});

test('a failed transaction rejects the callers of that batch only', async () => {
  let calls = 0;
  const writer = new BatchWriter<number>(async () => {
    calls++;
    if (calls === 1) throw new Error('QuotaExceededError');
  });
  const first = writer.add([1]);
  void writer.flush();
  await expect(first).rejects.toThrow('QuotaExceededError');
  const second = writer.add([2]);
  void writer.flush();
  await expect(second).resolves.toBeUndefined();
});
