/**
 * A table for a paper: the chosen metrics of the chosen signals, as CSV, Markdown or LaTeX.
 * Laid out signals × metrics (the default: a row per signal, per model when there are several,
 * a column per metric, narrow enough for a paper's column) or models × (metric, signal) (the
 * headline table's layout). Each cell holds one number and, for the paper's ECE, its one
 * interval (headline-table.ts eceIntervalOf: the report's `eceInference`); the caption says
 * exactly what that interval is, and no caption promises an interval the cells do not hold.
 * Columns beyond the metrics table (version 3 reports on): the ECE after cross-fitted isotonic and
 * Platt recalibration with the same interval method, PRR and AUARC, so one table in the signals
 * layout reads raw against recalibrated ECE per signal. A signal that is not a probability shows a
 * dash for every raw calibration cell (ECE, its p-value, Brier, MCE …).
 */
import { METRICS, metricValue, type MetricKey } from '../model/metrics';
import type { ModelReport } from '../model/report';
import { isProbabilitySignal, SIGNAL_LABEL, SIGNAL_SHORT, type SignalName } from '../model/signals';
import { calibrationPOf, eceIntervalOf, fmtEceInterval, fmtP, fmtRecalibrated, headlineLatex, headlineMarkdown, headlineSignals, latexText, recalibratedOf, type HeadlineTable } from './headline-table';
import { fmt, pct } from './numbers';

/** A column: a metric of METRICS, the accuracy of the modal answers, or the p-value of the calibration test. */
export type PaperColumn = MetricKey | 'accuracy' | 'calibrationP' | 'eceIsotonic' | 'ecePlatt' | 'prr' | 'auarc';
export type PaperLayout = 'signals' | 'models';

export interface PaperTableOptions {
  layout: PaperLayout;
  signals: readonly SignalName[];
  columns: readonly PaperColumn[];
  /** The report's equal-width bins (settings.bins), named in the caption. */
  bins?: number;
}

export const PAPER_COLUMNS: readonly { key: PaperColumn; label: string }[] = [
  { key: 'ece', label: 'ECE [95% interval]' },
  { key: 'calibrationP', label: 'Calibration test p' },
  { key: 'eceIsotonic', label: 'ECE after isotonic [95% interval]' },
  { key: 'ecePlatt', label: 'ECE after Platt [95% interval]' },
  ...METRICS.filter((m) => m.key !== 'ece').map((m) => ({ key: m.key as PaperColumn, label: m.short })),
  { key: 'prr', label: 'PRR' },
  { key: 'auarc', label: 'AUARC' },
  { key: 'accuracy', label: 'Accuracy' },
];

/** The paper's ECE, its test and the headline metrics: what most papers report. */
export const DEFAULT_PAPER_COLUMNS: readonly PaperColumn[] = ['ece', 'calibrationP', 'brier', 'auroc'];

const columnLabel = (c: PaperColumn) => PAPER_COLUMNS.find((x) => x.key === c)!.label;

function cell(m: ModelReport, s: SignalName, c: PaperColumn): string {
  if (c === 'accuracy') return pct(m.metrics.accuracy);
  if (c === 'eceIsotonic') return fmtRecalibrated(recalibratedOf(m.metrics, 'isotonic', s));
  if (c === 'ecePlatt') return fmtRecalibrated(recalibratedOf(m.metrics, 'platt', s));
  if (c === 'prr' || c === 'auarc') return fmt(m.metrics.rejection?.[s]?.[c]);
  // A raw calibration measure of a signal that is not a probability claims nothing.
  if (!isProbabilitySignal(s) && (c === 'calibrationP' || METRICS.find((x) => x.key === c)!.calibration)) return '—';
  if (c === 'calibrationP') return fmtP(calibrationPOf(m.metrics, s));
  const sm = m.metrics.signals[s];
  if (!sm) return '—';
  const info = METRICS.find((x) => x.key === c)!;
  const value = fmt(metricValue(sm, c), info.digits);
  if (c !== 'ece') return value;
  const iv = eceIntervalOf(m.metrics, s);
  return iv ? `${value} ${fmtEceInterval(iv)}` : value;
}

/** The table's cells, in the chosen layout, signals the models did not score left out. */
export function paperTable(models: readonly ModelReport[], o: PaperTableOptions): HeadlineTable {
  const signals = headlineSignals(models).filter((s) => o.signals.includes(s));
  const columns = PAPER_COLUMNS.map((c) => c.key).filter((c) => o.columns.includes(c));
  const several = models.length > 1;
  if (o.layout === 'signals') {
    const header = [...(several ? ['Model'] : []), 'Signal', ...columns.map(columnLabel)];
    const rows = models.flatMap((m) => signals.filter((s) => m.metrics.signals[s]).map((s) => [...(several ? [m.model] : []), SIGNAL_LABEL[s], ...columns.map((c) => cell(m, s, c))]));
    return { header, rows };
  }
  // Models as rows: accuracy once (it is the modal answers', the same for every signal), the others per signal.
  const perSignal = columns.filter((c) => c !== 'accuracy');
  const header = ['Model', ...(columns.includes('accuracy') ? ['Accuracy'] : []), ...perSignal.flatMap((c) => signals.map((s) => `${columnLabel(c)} ${SIGNAL_SHORT[s]}`))];
  const rows = models.map((m) => [m.model, ...(columns.includes('accuracy') ? [pct(m.metrics.accuracy)] : []), ...perSignal.flatMap((c) => signals.map((s) => cell(m, s, c)))]);
  return { header, rows };
}

/**
 * The caption: what each number is, and exactly what the intervals are. Only the ECE cells carry
 * an interval; when the report holds none (made before intervals were stored), it says so.
 */
export function paperCaption(models: readonly ModelReport[], o: PaperTableOptions): string {
  const parts: string[] = [];
  const bins = o.bins ?? 10;
  const method = models.find((m) => m.metrics.eceInferenceMethod)?.metrics.eceInferenceMethod;
  if (o.columns.includes('ece')) {
    const shown = models.some((m) => o.signals.some((s) => eceIntervalOf(m.metrics, s)));
    parts.push(
      shown
        ? `ECE: the paper's expected calibration error over ${bins} equal-width confidence bins, with a 95% interval for the population ECE obtained by inverting a test of calibration (consistency resampling of the outcomes given the observed confidences, 2,000 simulated data sets per hypothesis${method ? `; method ${method}` : ''}); the interval can lie below the ECE, which noise biases upward. No other cell carries an interval.`
        : `ECE: the paper's expected calibration error over ${bins} equal-width confidence bins; this report holds no interval for it, so no cell carries one.`,
    );
  }
  if (o.columns.includes('calibrationP')) parts.push('Calibration test p: one-sided p-value of the test of perfect calibration (large ECEs count against it), from the same simulation.');
  if (o.columns.includes('eceIsotonic') || o.columns.includes('ecePlatt')) {
    const seed = models.find((m) => m.metrics.recalibration)?.metrics.recalibration?.seed;
    parts.push(
      `ECE after isotonic / Platt: the same ECE after a recalibration map fitted on one half of the questions and applied to the other, both ways (split seed ${seed ?? '—'}), with the same interval method on the recalibrated confidences; the interval takes the fitted maps as given.`,
    );
  }
  if (o.columns.includes('prr') || o.columns.includes('auarc')) parts.push('PRR: prediction–rejection ratio (LM-Polygraph\'s definition, random ranking at its expectation); AUARC: area under the accuracy–rejection curve.');
  if (models.some((m) => o.signals.some((s) => m.metrics.signals[s] && !isProbabilitySignal(s)))) parts.push('A dash in a raw calibration cell: the signal is not a probability.');
  const named = PAPER_COLUMNS.filter((c) => !['ece', 'calibrationP', 'eceIsotonic', 'ecePlatt', 'prr', 'auarc'].includes(c.key) && o.columns.includes(c.key)).map((c) => c.label);
  if (named.length) parts.push(`${named.join(', ')}: point estimates.`);
  const n = models.map((m) => `${m.model}: ${m.metrics.questions} questions`).join('; ');
  return `Calibration of each confidence signal (${n}). ${parts.join(' ')}`;
}

/** The leading text columns (model, signal): left-aligned, the numbers after them right-aligned. */
const textColumnsOf = (t: HeadlineTable) => t.header.filter((h) => h === 'Model' || h === 'Signal').length;

/** A Markdown table with its caption under it (pandoc's `Table:` line). */
export function paperMarkdown(t: HeadlineTable, caption: string): string {
  return `${headlineMarkdown(t, textColumnsOf(t))}\nTable: ${caption.replace(/\r?\n/g, ' ')}\n`;
}

/** A booktabs table (needs \usepackage{booktabs}), the caption as given (escaped for LaTeX). */
export function paperLatex(t: HeadlineTable, caption: string): string {
  return headlineLatex(t, latexText(caption), textColumnsOf(t));
}
