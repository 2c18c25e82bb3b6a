import { expect, test } from 'vitest';
import { MIN_PER_BIN, smallSampleNote } from '../../../../src/ui/report/small-sample';
import type { ModelReport } from '../../../../src/model/report';
import { demoDocument } from '../../../e2e/report-fixture';

/** A model whose Sem1 and Sem2 bins hold these counts (the rest of the metrics as the demo's). */
function withCounts(base: ModelReport, counts: Partial<Record<'sem1' | 'sem2', number[]>>): ModelReport {
  const m = structuredClone(base);
  for (const [s, cs] of Object.entries(counts)) {
    m.metrics.signals[s as 'sem1']!.bins = cs.map((count, i) => ({ lo: i / 10, hi: (i + 1) / 10, count, accuracy: 0.5, meanConfidence: 0.5 }));
  }
  // Only Sem1 and Sem2 keep their bins: every other scored signal is left out.
  for (const s of Object.keys(m.metrics.signals)) if (s !== 'sem1' && s !== 'sem2') delete m.metrics.signals[s as 'sem1'];
  return m;
}

test('the note is per bin, not per average: a large report with one small bin gets it, a small one whose bins all hold 10 does not', () => {
  expect(MIN_PER_BIN).toBe(10);
  const base = demoDocument().models[0];
  // 1,000 questions on average 100 per bin, but one bin of 3: noted.
  const big = withCounts(base, { sem1: [3, 0, 97, 100, 100, 100, 100, 100, 200, 200], sem2: [100, 100, 100, 100, 100, 100, 100, 100, 100, 100] });
  expect(smallSampleNote([big])).toBe(
    'Small bins: some ECEs rest on bins under 10 questions (Sem1 1 of 9 non-empty bins). A bin that small gives a coarse accuracy, so its gap is mostly noise, and the ECE reads high, since noise only widens the gaps. These bins are marked with a ring on the reliability diagrams; read the intervals, not the point estimates.',
  );
  // 50 questions, 10 in each of five bins (an average of 5 per bin): no bin is small, no note.
  const even = withCounts(base, { sem1: [0, 0, 0, 0, 0, 10, 10, 10, 10, 10], sem2: [10, 10, 10, 10, 10, 0, 0, 0, 0, 0] });
  expect(smallSampleNote([even])).toBeNull();
  // Several models: each named.
  const note = smallSampleNote([big, { ...withCounts(base, { sem1: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10], sem2: [9, 1, 10, 10, 10, 10, 10, 10, 10, 10] }), model: 'other' }]);
  expect(note).toContain(`(${big.model}: Sem1 1 of 9; other: Sem2 2 of 10 non-empty bins)`);
});

test('a score that is not a probability (no raw ECE shown) is not named, however small its bins', () => {
  const base = demoDocument().models[0];
  const m = withCounts(base, { sem1: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10], sem2: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10] });
  // num_sets with a bin of 2 questions: its raw ECE is not shown, so its small bins are no caveat on any number shown.
  m.metrics.signals.num_sets = structuredClone(m.metrics.signals.sem1!);
  m.metrics.signals.num_sets.bins = [2, 0, 0, 0, 0, 0, 0, 0, 0, 98].map((count, i) => ({ lo: i / 10, hi: (i + 1) / 10, count, accuracy: 0.5, meanConfidence: 0.5 }));
  expect(smallSampleNote([m])).toBeNull();
});
