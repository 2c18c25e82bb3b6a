import { expect, test } from 'vitest';
import { formatPath } from '../../../src/formats/field-path';

test('a zod path reads as the messages name a field', () => {
  expect(formatPath(['models', 0, 'questions', 12, 'sem1'])).toBe('models[0].questions[12].sem1');
  expect(formatPath(['evaluation', 'coverage', 1])).toBe('evaluation.coverage[1]');
  expect(formatPath([3, 'x'])).toBe('[3].x');
  expect(formatPath([])).toBe('(document)');
});
