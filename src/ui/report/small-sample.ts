/**
 * The report's small-sample note, per bin (pipeline/small-bins.ts), not per average: it names
 * each model's signals whose ECE rests on bins under MIN_PER_BIN questions. Such a bin's accuracy
 * is a coarse fraction, so its gap is mostly noise, and noise only widens gaps: the ECE reads high.
 * The same bins are marked with a ring on the reliability diagrams and counted beside each ECE in the
 * headline table; the rule is stated in the note itself, so a reader can judge it.
 */
import type { ModelReport } from '../../model/report';
import { MIN_PER_BIN, signalSmallBins } from '../../pipeline/small-bins';
import { isProbabilitySignal, SIGNAL_ORDER, SIGNAL_SHORT } from '../../model/signals';

export { MIN_PER_BIN } from '../../pipeline/small-bins';

/** The note for the models' scored signals with bins under MIN_PER_BIN questions, or null when no bin is that small. */
export function smallSampleNote(models: readonly ModelReport[]): string | null {
  const parts: string[] = [];
  for (const m of models) {
    // Only the signals whose raw ECE the report shows: a score that is not a probability has none.
    const hit = SIGNAL_ORDER.filter(isProbabilitySignal).flatMap((s) => {
      const b = signalSmallBins(m, s);
      return b && b.small.length ? [`${SIGNAL_SHORT[s]} ${b.small.length} of ${b.nonEmpty}`] : [];
    });
    if (hit.length) parts.push(`${models.length > 1 ? `${m.model}: ` : ''}${hit.join(', ')}`);
  }
  if (parts.length === 0) return null;
  return `Small bins: some ECEs rest on bins under ${MIN_PER_BIN} questions (${parts.join('; ')} non-empty bins). A bin that small gives a coarse accuracy, so its gap is mostly noise, and the ECE reads high, since noise only widens the gaps. These bins are marked with a ring on the reliability diagrams; read the intervals, not the point estimates.`;
}
