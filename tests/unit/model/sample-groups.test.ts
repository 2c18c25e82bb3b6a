import { expect, test } from 'vitest';
import { groupBySlot, indexedSamples, keyOfSlot, mergeSlots, sampleInSlot, slotOf } from '../../../src/model/sample-groups';
import type { Sample } from '../../../src/model/rows';

const s = (answer: string): Sample => ({ raw: `Answer: ${answer}`, answer, answerMethod: 'answer-line', confidence: null, confidenceMethod: 'missing', finishReason: 'stop' });

test('every key maps to one (question, slot) and back, keys without # and with several # included', () => {
  const keys = ['s1:abc#0', 's1:abc#49', 's1:abc#007', 'plain', 'a#b#c', '#', 'x#', 'x#__proto__'];
  const where = keys.map(slotOf);
  expect(where.map(({ group, slot }) => keyOfSlot(group, slot))).toEqual(keys);
  expect(where.slice(0, 5)).toEqual([
    { group: 's1:abc', slot: '0' }, { group: 's1:abc', slot: '49' }, { group: 's1:abc', slot: '007' }, { group: 'plain', slot: '#' }, { group: 'a#b', slot: 'c' },
  ]);
  // 'x#' (slot '') and 'x' (slot '#') never share a slot.
  expect(new Set(['x', 'x#'].map((k) => JSON.stringify(slotOf(k)))).size).toBe(2);
});

test('indices are read from slots exactly: 7 is index 7, 007 and 7.0 are not, nothing at or past n', () => {
  const record = { slots: ['0', '007', '7', '7.0', '12', '__proto__'], samples: ['a', 'b', 'c', 'd', 'e', 'f'].map(s) };
  expect(indexedSamples(record, 10).map((x) => x?.answer)).toEqual(['a', undefined, undefined, undefined, undefined, undefined, undefined, 'c', undefined, undefined]);
  expect(sampleInSlot(record, '__proto__')?.answer).toBe('f');
  expect(sampleInSlot(record, 'constructor')).toBeUndefined();
  expect(indexedSamples(undefined, 2)).toEqual([undefined, undefined]);
});

test('merging keeps the first sample of a slot or takes the new one, and counts the new slots', () => {
  const had = { slots: ['0', '1'], samples: [s('a0'), s('a1')] };
  const got = groupBySlot([{ key: 'q#1', sample: s('b1') }, { key: 'q#2', sample: s('b2') }]).get('q')!;
  const kept = mergeSlots(had, got, 'keep');
  expect(kept).toMatchObject({ slots: ['0', '1', '2'], added: 1, changed: true });
  expect(kept.samples.map((x) => x.answer)).toEqual(['a0', 'a1', 'b2']);
  const replaced = mergeSlots(had, got, 'replace');
  expect(replaced.samples.map((x) => x.answer)).toEqual(['a0', 'b1', 'b2']);
  // The record merged into is not changed in place.
  expect(had.samples.map((x) => x.answer)).toEqual(['a0', 'a1']);
  expect(mergeSlots(had, new Map([['0', s('c0')]]), 'keep')).toMatchObject({ added: 0, changed: false });
  // A key twice in one batch: the last sample by default, the first when asked.
  const twice = [{ key: 'q#0', sample: s('first') }, { key: 'q#0', sample: s('last') }];
  expect(groupBySlot(twice).get('q')!.get('0')?.answer).toBe('last');
  expect(groupBySlot(twice, 'first').get('q')!.get('0')?.answer).toBe('first');
});
