import { expect, test } from 'vitest';
import { adaptiveModalClass, adaptiveSem2 } from '../../../src/core/adaptive-sem2';

test('adaptiveSem2: z from the selection block, its share of the held-out block (hand-computed)', () => {
  // Selection [0,0,1]: z = 0; held-out [0,1,0,2]: 2 of 4.
  expect(adaptiveSem2([0, 0, 1, 0, 1, 0, 2], 3)).toBe(0.5);
  // Selection [2,2,2,2,2]: z = 2; held-out has 19 of 20 twos.
  expect(adaptiveSem2([...Array(5).fill(2), ...Array(19).fill(2), 0], 5)).toBe(19 / 20);
});

test('ties in the selection go to the lowest class index, whatever the order of appearance', () => {
  // Selection [3,1,1,3]: tie between 1 and 3 → z = 1; held-out [3,3,1]: 1 of 3.
  expect(adaptiveModalClass([3, 1, 1, 3, 3, 3, 1], 4)).toBe(1);
  expect(adaptiveSem2([3, 1, 1, 3, 3, 3, 1], 4)).toBe(1 / 3);
  expect(adaptiveModalClass([2, 0, 1], 3)).toBe(0);
});

test('z absent from the held-out block gives 0; no held-out block gives 0', () => {
  expect(adaptiveSem2([1, 1, 0, 2, 0], 2)).toBe(0);
  expect(adaptiveSem2([1, 1, 1], 3)).toBe(0);
  expect(adaptiveSem2([1, 1, 1], 7)).toBe(0);
  expect(adaptiveSem2([], 0)).toBe(0);
  expect(adaptiveModalClass([], 0)).toBe(-1);
});

test('only the held-out block counts: selection hits are not in the share', () => {
  expect(adaptiveSem2([0, 0, 0, 0, 1, 1, 1, 0], 4)).toBe(1 / 4);
});

test('a selection that is not a non-negative integer is refused', () => {
  expect(() => adaptiveSem2([0, 1], -1)).toThrow(RangeError);
  expect(() => adaptiveSem2([0, 1], 1.5)).toThrow(RangeError);
});
