/**
 * Every confidence signal of a report as one column: Sem1, Sem2 and verbalized from the fixed
 * fields of ReportQuestion, the others (stated probability, logprob, entropy confidence) from
 * `signals`. A chart or table picks a column by its SignalName (labels: src/ui/charts/signals.ts);
 * compare-signals.ts ranks them.
 */
import type { ReportQuestion, SignalName } from './report';

export const SIGNAL_NAMES: readonly SignalName[] = ['sem1', 'sem2', 'verbalized', 'stated', 'logprob', 'entropyConfidence'];

/**
 * Semantic entropy H (nats, over the non-empty classes) as a confidence: exp(−H). It is 1 when all
 * samples agree and 1/m when they are spread evenly over m classes; in general
 * 1/m ≤ exp(−H) ≤ Sem1 (since H ≥ −ln max p_k and H ≤ ln m), so it sits on the same 0–1 scale as
 * the frequencies it is compared with. exp(−H) is preferred over 1 − H/ln n because it does not
 * depend on n, so questions sampled with different n stay comparable.
 */
export function entropyConfidence(entropy: number): number {
  return Number.isFinite(entropy) && entropy >= 0 ? Math.exp(-entropy) : NaN;
}

/** A signal's value on one question; NaN when the question does not have it. */
export function signalValue(q: ReportQuestion, name: SignalName): number {
  switch (name) {
    case 'sem1':
      return q.sem1;
    case 'sem2':
      return q.sem2;
    case 'verbalized':
      return q.verbalized;
    default: {
      const v = q.signals?.[name];
      if (v !== undefined) return v;
      return name === 'entropyConfidence' ? entropyConfidence(q.entropy) : NaN;
    }
  }
}

/** One column per signal that at least one question has (finite), in SIGNAL_NAMES order. */
export function signalColumns(questions: readonly ReportQuestion[]): Partial<Record<SignalName, Float64Array>> {
  const out: Partial<Record<SignalName, Float64Array>> = {};
  for (const name of SIGNAL_NAMES) {
    const col = Float64Array.from(questions, (q) => signalValue(q, name));
    if (col.some(Number.isFinite)) out[name] = col;
  }
  return out;
}
