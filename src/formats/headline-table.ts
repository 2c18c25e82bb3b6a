/**
 * The report's headline table as data, and as CSV, Markdown and LaTeX for a paper or slides:
 * one row per model, the numbers rounded as the report shows them (formats/numbers.ts), the
 * paper's ECE per signal, its one 95% interval (eceIntervalOf) and its calibration test's p-value
 * per signal, then each headline metric per signal; for a report that holds them (version 3 on),
 * PRR and AUARC per signal and the ECE after cross-fitted isotonic and Platt recalibration with
 * its interval, so raw and recalibrated ECE sit in one table. A signal that is not a probability
 * (model/signals.ts) has no raw ECE, interval, p-value or Brier column, as on the page: they would
 * claim nothing; its ranking metrics and recalibrated ECEs are there.
 */
import { HEADLINE_METRICS, metricValue } from '../model/metrics';
import type { ModelMetrics, ModelReport, RecalibrationMetrics } from '../model/report';
import { isProbabilitySignal, SIGNAL_ORDER, SIGNAL_SHORT, type SignalName } from '../model/signals';
import { toCsv } from './csv';
import { fmt, pct } from './numbers';

export interface HeadlineTable {
  header: string[];
  rows: string[][];
}

/** Every signal some model scored, in the shared order (a model without one shows a dash). */
export function headlineSignals(models: readonly ModelReport[]): SignalName[] {
  return SIGNAL_ORDER.filter((s) => models.some((m) => m.metrics.signals[s]));
}

/**
 * The one interval shown beside a signal's paper ECE, wherever it is shown (table, charts,
 * exports, `semece score`'s `ece_interval`): core/ece-inference.ts's 95% interval for the
 * population ECE, stored as `eceInference`. It can lie below the paper's ECE, which noise biases
 * upward. Null when the report holds none (made before it existed) or it is undefined.
 */
export function eceIntervalOf(metrics: ModelMetrics, signal: SignalName): [number, number] | null {
  const iv = metrics.eceInference?.[signal]?.interval;
  return iv && Number.isFinite(iv[0]) && Number.isFinite(iv[1]) ? iv : null;
}

/** The p-value of the signal's test of perfect calibration (null when the report holds none). */
export function calibrationPOf(metrics: ModelMetrics, signal: SignalName): number | null {
  const p = metrics.eceInference?.[signal]?.p;
  return p !== undefined && Number.isFinite(p) ? p : null;
}

/** "[0.041, 0.080]", or an em dash without an interval. */
export function fmtEceInterval(iv: [number, number] | null): string {
  return iv ? `[${fmt(iv[0])}, ${fmt(iv[1])}]` : '—';
}

/** A p-value as the report prints it: three decimals, "< 0.001" below that; an em dash when absent. */
export function fmtP(p: number | null): string {
  if (p === null || !Number.isFinite(p)) return '—';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** A signal's ECE after a recalibration map (null when the report holds none). */
export function recalibratedOf(metrics: ModelMetrics, method: keyof Pick<RecalibrationMetrics, 'isotonic' | 'platt'>, signal: SignalName) {
  return metrics.recalibration?.[method][signal] ?? null;
}

/** "0.052 [0.031, 0.080]", the interval left out when undefined; an em dash when absent. */
export function fmtRecalibrated(r: { ece: number; interval: [number, number] } | null): string {
  if (!r) return '—';
  const iv = Number.isFinite(r.interval[0]) && Number.isFinite(r.interval[1]) ? r.interval : null;
  return iv ? `${fmt(r.ece)} ${fmtEceInterval(iv)}` : fmt(r.ece);
}

export function headlineTable(models: readonly ModelReport[]): HeadlineTable {
  const signals = headlineSignals(models);
  // The raw calibration columns: only signals that are probabilities.
  const probabilities = signals.filter(isProbabilitySignal);
  const rejection = models.some((m) => m.metrics.rejection);
  const recalibration = models.some((m) => m.metrics.recalibration);
  const metricSignals = (metric: (typeof HEADLINE_METRICS)[number]) => (metric.calibration ? probabilities : signals);
  const header = [
    'Model',
    'Questions',
    'Excluded',
    'Accuracy',
    ...probabilities.map((s) => `ECE ${SIGNAL_SHORT[s]}`),
    ...probabilities.map((s) => `ECE ${SIGNAL_SHORT[s]} 95% CI`),
    ...probabilities.map((s) => `Calibration p ${SIGNAL_SHORT[s]}`),
    ...HEADLINE_METRICS.flatMap((metric) => metricSignals(metric).map((s) => `${metric.short} ${SIGNAL_SHORT[s]}`)),
    ...(rejection ? [...signals.map((s) => `PRR ${SIGNAL_SHORT[s]}`), ...signals.map((s) => `AUARC ${SIGNAL_SHORT[s]}`)] : []),
    ...(recalibration ? [...signals.map((s) => `ECE isotonic ${SIGNAL_SHORT[s]} [95% CI]`), ...signals.map((s) => `ECE Platt ${SIGNAL_SHORT[s]} [95% CI]`)] : []),
  ];
  const rows = models.map((m) => [
    m.model,
    String(m.metrics.questions),
    String(m.metrics.excluded),
    pct(m.metrics.accuracy),
    ...probabilities.map((s) => fmt(m.metrics.signals[s]?.ece)),
    // The ECE's one interval, as every view shows it, and its calibration test.
    ...probabilities.map((s) => fmtEceInterval(eceIntervalOf(m.metrics, s))),
    ...probabilities.map((s) => fmtP(calibrationPOf(m.metrics, s))),
    ...HEADLINE_METRICS.flatMap((metric) =>
      metricSignals(metric).map((s) => {
        const sm = m.metrics.signals[s];
        return fmt(sm ? metricValue(sm, metric.key) : undefined, metric.digits);
      }),
    ),
    ...(rejection ? [...signals.map((s) => fmt(m.metrics.rejection?.[s]?.prr)), ...signals.map((s) => fmt(m.metrics.rejection?.[s]?.auarc))] : []),
    ...(recalibration
      ? [...signals.map((s) => fmtRecalibrated(recalibratedOf(m.metrics, 'isotonic', s))), ...signals.map((s) => fmtRecalibrated(recalibratedOf(m.metrics, 'platt', s)))]
      : []),
  ]);
  return { header, rows };
}

export function headlineCsv(t: HeadlineTable): string {
  return toCsv(t.header, t.rows);
}

/** A cell of a Markdown table: pipes and line breaks would end it. */
const mdCell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** `textColumns`: how many leading columns hold text (left-aligned); the rest are numbers. */
export function headlineMarkdown(t: HeadlineTable, textColumns = 1): string {
  const align = t.header.map((_, i) => (i < textColumns ? ':---' : '---:'));
  return [t.header, align, ...t.rows].map((r) => `| ${r.map(mdCell).join(' | ')} |`).join('\n') + '\n';
}

const LATEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_', '{': '\\{', '}': '\\}', '~': '\\textasciitilde{}', '^': '\\textasciicircum{}',
};

/** Text safe in LaTeX: its special characters escaped, the em dash of an undefined value as ---. */
export function latexText(s: string): string {
  return s.replace(/[\\&%$#_{}~^]/g, (c) => LATEX_SPECIAL[c]).replace(/—/g, '---');
}

/** A booktabs table (needs \usepackage{booktabs}), the model column left, numbers right. */
export function headlineLatex(t: HeadlineTable, caption = 'Calibration of each model (the paper\'s ECE, a 95\\% interval for the population ECE, and the p-value of the test of perfect calibration).', textColumns = 1): string {
  const spec = 'l'.repeat(textColumns) + 'r'.repeat(t.header.length - textColumns);
  const line = (r: string[]) => `${r.map(latexText).join(' & ')} \\\\`;
  return [
    '\\begin{table}[t]',
    '\\centering',
    `\\caption{${caption}}`,
    `\\begin{tabular}{${spec}}`,
    '\\toprule',
    line(t.header),
    '\\midrule',
    ...t.rows.map(line),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
    '',
  ].join('\n');
}
