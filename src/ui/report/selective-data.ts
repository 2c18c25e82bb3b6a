/**
 * The selective-prediction view's data: a model's questions as the columns its metrics were
 * scored from (pipeline/score-stage.ts: `signalValue` per question, Y from `correct`, in question
 * order), the risk–coverage curve of each scored signal with the AURC the report stored beside
 * it, the curve thinned for drawing without changing what is drawn, and the abstention result.
 */
import { riskCoverageCurve, type RiskCoverageCurve } from '../../core/risk-coverage';
import type { ModelReport, StoredAbstentionEntry } from '../../model/report';
import { abstentionColumns, abstentionEntry, storedEntry } from '../../pipeline/abstention-metrics';
import { SIGNAL_ORDER, type SignalName } from '../../model/signals';

/** The signals a model's metrics scored, in the shared order. */
export function scoredSignalsOf(m: ModelReport): SignalName[] {
  return SIGNAL_ORDER.filter((s) => m.metrics.signals[s]);
}

export interface SelectiveColumns {
  conf: Float64Array;
  y: Float64Array;
  /** 1 where the model's own reply was graded NOT_ATTEMPTED. */
  declined: Uint8Array;
}

export function selectiveColumns(m: ModelReport, signal: SignalName): SelectiveColumns {
  return abstentionColumns(m.questions, signal);
}

export interface CurvePoint {
  /** Questions answered, k (1-based). */
  k: number;
  coverage: number;
  risk: number;
}

export interface SignalCurve {
  signal: SignalName;
  curve: RiskCoverageCurve;
  /** The AURC the report holds for this signal (metrics.signals[s].aurc). */
  storedAurc: number;
  /** The curve's points to draw (thinCurve). */
  points: CurvePoint[];
}

/**
 * A polyline of the curve with the same drawing at `columns` columns across: in each column of
 * coverage, its first and last point and its lowest and highest risk, in curve order (the M4
 * reduction). Every point is kept when there are no more than four per column, so small reports
 * draw every point; a 50,000-question report draws a few thousand instead of 50,000.
 */
export function thinCurve(curve: RiskCoverageCurve, columns = 800): CurvePoint[] {
  const point = (i: number): CurvePoint => ({ k: i + 1, coverage: curve.coverage[i], risk: curve.risk[i] });
  if (curve.n <= 4 * columns) return Array.from({ length: curve.n }, (_, i) => point(i));
  const out: CurvePoint[] = [];
  for (let start = 0; start < curve.n; ) {
    const column = Math.min(columns - 1, Math.floor(curve.coverage[start] * columns));
    let end = start + 1;
    while (end < curve.n && Math.min(columns - 1, Math.floor(curve.coverage[end] * columns)) === column) end++;
    let lo = start;
    let hi = start;
    for (let i = start; i < end; i++) {
      if (curve.risk[i] < curve.risk[lo]) lo = i;
      if (curve.risk[i] > curve.risk[hi]) hi = i;
    }
    for (const i of [...new Set([start, lo, hi, end - 1])].sort((a, b) => a - b)) out.push(point(i));
    start = end;
  }
  return out;
}

export function signalCurve(m: ModelReport, signal: SignalName): SignalCurve {
  const { conf, y } = selectiveColumns(m, signal);
  const curve = riskCoverageCurve(conf, y);
  return { signal, curve, storedAurc: m.metrics.signals[signal]?.aurc ?? NaN, points: thinCurve(curve) };
}

/**
 * Where a threshold sits on the curve of all questions: the end of the tie group at t (every
 * question with confidence ≥ t answered), where the curve's risk is a plain count. Null for no
 * threshold or one above every confidence.
 */
export function thresholdOnCurve(curve: RiskCoverageCurve, threshold: number | null): CurvePoint | null {
  if (threshold === null) return null;
  let at = -1;
  // Thresholds run from the most confident down: the last one still ≥ t answers every such question.
  for (let i = 0; i < curve.n && curve.threshold[i] >= threshold; i++) at = i;
  return at < 0 ? null : { k: at + 1, coverage: curve.coverage[at], risk: curve.risk[at] };
}

/** The abstention shown: the threshold at (target, seed), its evaluation and its spread over the splits. */
export interface ShownAbstention extends StoredAbstentionEntry {
  target: number;
  seed: number;
  /** True when read from the report (chosen when it was scored), false when computed here. */
  stored: boolean;
}

const computed = new WeakMap<ModelReport['questions'], Map<string, ShownAbstention>>();

/**
 * The threshold the report stored at its default target and seed (chosen once, when it was
 * scored), else computed from the questions once per (signal, target, seed) and kept.
 */
export function modelAbstention(m: ModelReport, signal: SignalName, target: number, seed: number): ShownAbstention {
  const kept = m.metrics.abstention;
  const entry = kept && kept.target === target && kept.seed === seed ? kept.bySignal[signal] : undefined;
  if (entry) return { ...entry, target, seed, stored: true };
  let memo = computed.get(m.questions);
  if (!memo) computed.set(m.questions, (memo = new Map()));
  const key = `${signal} ${target} ${seed}`;
  let shown = memo.get(key);
  if (!shown) {
    shown = { ...storedEntry(abstentionEntry(abstentionColumns(m.questions, signal), target, seed)), target, seed, stored: false };
    memo.set(key, shown);
  }
  return shown;
}
