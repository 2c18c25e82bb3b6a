import { expect, test } from 'vitest';
import { MIN_PER_BIN, smallSampleNote } from '../../../../src/ui/report/small-sample';

test('a 10-bin ECE on fewer than 10 questions per bin gets a plain note that states the rule', () => {
  expect(MIN_PER_BIN).toBe(10);
  expect(smallSampleNote(100, 10)).toBeNull();
  expect(smallSampleNote(40_000, 10)).toBeNull();
  expect(smallSampleNote(20, 10)).toBe(
    'Few questions: 20 scored over 10 bins is about 2 per bin. A 10-bin ECE means little below 10 questions per bin (100 questions here): its noise dominates, and it reads high, since noise only widens the gaps. Read the intervals, not the point estimates.',
  );
  expect(smallSampleNote(3, 10)).toMatch(/^Few questions: 3 scored over 10 bins is about 0\.3 per bin\./);
  expect(smallSampleNote(150, 20)).toMatch(/200 questions here/);
});
