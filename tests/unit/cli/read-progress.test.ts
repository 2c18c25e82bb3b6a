import { expect, test } from 'vitest';
import { readProgress } from '../../../cli/read-progress';

test('a line each time a further tenth of the file is read, never twice for one tenth, none at the end', () => {
  const say = readProgress('r.jsonl', 1000);
  const p = { lines: 5, stored: 250 };
  expect(say(50, p)).toBeUndefined();
  expect(say(120, p)).toBe('r.jsonl: 10% read, 5 line(s), 250 sample(s) stored');
  expect(say(190, p)).toBeUndefined();
  // A write that passes several tenths at once says the last.
  expect(say(470, { lines: 20, stored: 1000 })).toBe('r.jsonl: 40% read, 20 line(s), 1000 sample(s) stored');
  expect(say(1000, p)).toBeUndefined();
  // A file read in one go (its first write at the end) says nothing extra; an empty one neither.
  expect(readProgress('small.jsonl', 300)(300, p)).toBeUndefined();
  expect(readProgress('empty.jsonl', 0)(0, p)).toBeUndefined();
});
