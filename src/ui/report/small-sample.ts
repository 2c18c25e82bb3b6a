/**
 * When a binned ECE says little: with fewer than MIN_PER_BIN questions per bin on average, most
 * bins hold a handful of questions, each bin's accuracy is a coarse fraction, and the ECE is
 * dominated by that noise (and biased upward, since noise only adds gaps). The rule is stated in
 * the note itself, so a reader can judge it.
 */
export const MIN_PER_BIN = 10;

/** The note for the fewest questions any model of the report was scored on, or null when there are enough. */
export function smallSampleNote(questions: number, bins: number): string | null {
  const needed = MIN_PER_BIN * bins;
  if (questions >= needed) return null;
  const per = questions / bins;
  return `Few questions: ${questions} scored over ${bins} bins is about ${per < 1 ? per.toFixed(1) : Math.round(per)} per bin. A ${bins}-bin ECE means little below ${MIN_PER_BIN} questions per bin (${needed} questions here): its noise dominates, and it reads high, since noise only widens the gaps. Read the intervals, not the point estimates.`;
}
