/**
 * What the overlaid charts draw of each compared model (share/compare-link.ts CompareChartModel),
 * from the reports on the Compare page, or thinner and rounded for a share link, where the same
 * charts are drawn from it.
 */
import { riskCoverageCurve } from '../../core/risk-coverage';
import { SIGNAL_ORDER } from '../../model/signals';
import type { CompareEntry } from '../../pipeline/report-alignment';
import type { CompareChartModel } from '../../share/compare-link';
import { selectiveColumns, thinCurve } from '../report/selective-data';

/** Columns of the thinned curve in a link (at most four points each) and the digits kept: a drawing's resolution. */
const LINK_COLUMNS = 25;
const LINK_DIGITS = 4;

function round(x: number, digits: number | null): number {
  if (digits === null || !Number.isFinite(x)) return x;
  return Number(x.toFixed(digits));
}

/** Every signal every entry scored, per entry, as the Compare page draws them. */
export function chartModels(entries: readonly CompareEntry[]): CompareChartModel[] {
  return chartModelsAt(entries, 800, null);
}

/** The same, thinner and rounded, for a share link. */
export function linkChartModels(entries: readonly CompareEntry[]): CompareChartModel[] {
  return chartModelsAt(entries, LINK_COLUMNS, LINK_DIGITS);
}

/** Per entry: bins, the curve (thinned to `columns`) and the Sem1 − Sem2 gap, `digits` kept (null: all). */
function chartModelsAt(entries: readonly CompareEntry[], columns: number, digits: number | null): CompareChartModel[] {
  const signals = SIGNAL_ORDER.filter((s) => entries.every((e) => e.model.metrics.signals[s]));
  return entries.map((e) => {
    const out: CompareChartModel['signals'] = {};
    for (const s of signals) {
      const { conf, y } = selectiveColumns(e.model, s);
      out[s] = {
        bins: e.model.metrics.signals[s]!.bins.map((b) => ({ ...b, meanConfidence: round(b.meanConfidence, digits), accuracy: round(b.accuracy, digits) })),
        points: thinCurve(riskCoverageCurve(conf, y), columns).map((p) => ({ k: p.k, coverage: round(p.coverage, digits), risk: round(p.risk, digits) })),
      };
    }
    const d = e.model.metrics.bootstrap?.d_ece;
    return { name: e.name, questions: e.model.questions.length, gap: d ? [d[0], d[1], d[2]] : null, signals: out };
  });
}
