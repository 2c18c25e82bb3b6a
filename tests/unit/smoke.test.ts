import { expect, test } from 'vitest';
test('arithmetic sanity of the test runner', () => {
  expect(0.1 * 3).toBe(0.30000000000000004);
});
