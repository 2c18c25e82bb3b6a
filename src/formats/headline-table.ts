/**
 * The report's headline table as data, and as CSV, Markdown and LaTeX for a paper or slides:
 * one row per model, the numbers rounded as the report shows them (formats/numbers.ts), the
 * paper's ECE per signal, the debiased ECE with its 95% interval per signal, then each headline
 * metric per signal.
 */
import { HEADLINE_METRICS, metricValue } from '../model/metrics';
import type { ModelReport } from '../model/report';
import { SIGNAL_ORDER, SIGNAL_SHORT, type SignalName } from '../model/signals';
import { toCsv } from './csv';
import { fmt, fmtInterval, pct } from './numbers';

export interface HeadlineTable {
  header: string[];
  rows: string[][];
}

/** Every signal some model scored, in the shared order (a model without one shows a dash). */
export function headlineSignals(models: readonly ModelReport[]): SignalName[] {
  return SIGNAL_ORDER.filter((s) => models.some((m) => m.metrics.signals[s]));
}

export function headlineTable(models: readonly ModelReport[]): HeadlineTable {
  const signals = headlineSignals(models);
  const header = [
    'Model',
    'Questions',
    'Excluded',
    'Accuracy',
    ...signals.map((s) => `ECE ${SIGNAL_SHORT[s]}`),
    ...signals.map((s) => `Debiased ECE ${SIGNAL_SHORT[s]} [95% CI]`),
    ...HEADLINE_METRICS.flatMap((metric) => signals.map((s) => `${metric.short} ${SIGNAL_SHORT[s]}`)),
  ];
  const rows = models.map((m) => [
    m.model,
    String(m.metrics.questions),
    String(m.metrics.excluded),
    pct(m.metrics.accuracy),
    ...signals.map((s) => fmt(m.metrics.signals[s]?.ece)),
    // The interval goes with the estimate it contains: the bias-corrected one (older reports: the percentile interval, marked).
    ...signals.map((s) => {
      const bc = m.metrics.eceBiasCorrected?.[s];
      if (bc && Number.isFinite(bc[0])) return fmtInterval(bc[0], bc);
      const iv = m.metrics.eceIntervals[s];
      return iv && Number.isFinite(iv[1]) ? `— (percentile ${fmtInterval(iv[0], iv).replace(/^\S+ /, '')})` : '—';
    }),
    ...HEADLINE_METRICS.flatMap((metric) =>
      signals.map((s) => {
        const sm = m.metrics.signals[s];
        return fmt(sm ? metricValue(sm, metric.key) : undefined, metric.digits);
      }),
    ),
  ]);
  return { header, rows };
}

export function headlineCsv(t: HeadlineTable): string {
  return toCsv(t.header, t.rows);
}

/** A cell of a Markdown table: pipes and line breaks would end it. */
const mdCell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function headlineMarkdown(t: HeadlineTable): string {
  const align = t.header.map((_, i) => (i === 0 ? ':---' : '---:'));
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
export function headlineLatex(t: HeadlineTable, caption = 'Calibration of each model (ECE with 95\\% bootstrap intervals).'): string {
  const spec = `l${'r'.repeat(t.header.length - 1)}`;
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
