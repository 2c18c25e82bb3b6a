import { expect, test } from 'vitest';
import { mostCommon } from '../../../src/core/most-common';

test('mostCommon: the mode, ties to the first to reach the top count, NaN when empty', () => {
  expect(mostCommon([50, 20, 50, 20, 10])).toBe(50);
  expect(mostCommon([20, 50, 50, 20])).toBe(50);
  expect(mostCommon([7])).toBe(7);
  expect(mostCommon([])).toBeNaN();
});
