/**
 * Bringing the extra confidence signals into a report: each becomes a column of
 * ReportQuestion.signals and, when every scored question has it, a scored signal of
 * ModelMetrics.signals (ECE, Brier, reliability bins, bootstrap interval …) through the score
 * stage's own `modelMetrics`, so every chart and table can pick it like Sem1 or Sem2.
 *
 * entropyConfidence = exp(−H) (signals.ts) is added to every question. A signal present on only
 * some questions (logprob when some replies lacked them) stays visible per question but is not
 * scored: a calibration over a different subset of questions would not be comparable with the
 * others; compare-signals.ts says so in its `excluded` list.
 */
import { modelMetrics, type ScoreOptions } from '../pipeline/score';
import type { ModelReport, SignalName } from '../model/report';
import { entropyConfidence, SIGNAL_NAMES, signalValue } from '../model/signals';

export type ExtraSignals = Record<string, Partial<Record<SignalName, number>>>;

/** Signals defined (finite) on every question: the ones that can be scored side by side. */
export function scorableSignals(report: Pick<ModelReport, 'questions'>): SignalName[] {
  if (report.questions.length === 0) return [];
  return SIGNAL_NAMES.filter((name) => report.questions.every((q) => Number.isFinite(signalValue(q, name))));
}

/** The report with `extra` signals (by question id) and entropy confidence added, and rescored. */
export function withSignals(report: ModelReport, extra: ExtraSignals = {}, options: ScoreOptions = {}): ModelReport {
  const questions = report.questions.map((q) => ({
    ...q,
    signals: { entropyConfidence: entropyConfidence(q.entropy), ...q.signals, ...extra[q.id] },
  }));
  const next = { ...report, questions };
  return { ...next, metrics: modelMetrics(questions, { excluded: report.metrics.excluded, signals: scorableSignals(next) }, options) };
}

/**
 * Entropy confidence added to a scored report for every report the app makes: withSignals, unless
 * that would drop a signal the report already scored (withSignals scores only signals defined on
 * every question, so e.g. a verbalized confidence missing on some questions would vanish): then
 * the report is returned unchanged rather than losing a column. Empty reports stay as they are.
 */
export function withEntropyConfidence(report: ModelReport, options: ScoreOptions = {}): ModelReport {
  if (report.questions.length === 0) return report;
  const next = withSignals(report, {}, options);
  const kept = (Object.keys(report.metrics.signals) as SignalName[]).every((s) => next.metrics.signals[s]);
  return kept ? next : report;
}
