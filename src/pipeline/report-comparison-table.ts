/**
 * A comparison (report-comparison.ts) for people: what differs between the reports first (the
 * settings, the clusterer warning, the questions not shared), then one row per pair, metric and
 * signal, rounded as the report rounds (formats/numbers.ts), as Markdown or LaTeX with the
 * headline table's writers.
 */
import { fmtP, headlineLatex, headlineMarkdown, latexText, type HeadlineTable } from '../formats/headline-table';
import { fmt } from '../formats/numbers';
import { METRICS } from '../model/metrics';
import { SIGNAL_SHORT, type SignalName } from '../model/signals';
import type { DifferenceEntry, ReportComparison } from './report-comparison';

const interval = (iv: [number, number]) => (Number.isFinite(iv[0]) && Number.isFinite(iv[1]) ? `[${fmt(iv[0])}, ${fmt(iv[1])}]` : '—');

export function comparisonTable(c: ReportComparison): HeadlineTable {
  const rows: string[][] = [];
  const row = (pair: string, metric: string, signal: string, d: DifferenceEntry) =>
    rows.push([pair, metric, signal, fmt(d.difference), interval(d.interval), fmtP(d.p), fmtP(d.p_adjusted)]);
  for (const p of c.pairs) {
    const pair = `${p.b} − ${p.a}`;
    row(pair, 'Accuracy', '', p.metrics.accuracy);
    for (const m of METRICS) {
      const bySignal = p.metrics[m.cli];
      if (!bySignal) continue;
      for (const [s, d] of Object.entries(bySignal) as [SignalName, DifferenceEntry][]) row(pair, m.short, SIGNAL_SHORT[s], d);
    }
  }
  return { header: ['Pair (B − A)', 'Metric', 'Signal', 'Difference', '95% CI', 'p', 'p (Holm)'], rows };
}

/** The lines to read before any number: per pair, the settings that differ, warnings, questions not shared. */
export function comparisonPreamble(c: ReportComparison): string[] {
  const lines: string[] = [];
  for (const p of c.pairs) {
    const head = `${p.a} vs ${p.b}: ${p.shared} shared questions`;
    const only = [p.only_a.length ? `${p.only_a.length} only in ${p.a}` : '', p.only_b.length ? `${p.only_b.length} only in ${p.b}` : ''].filter(Boolean);
    lines.push(only.length ? `${head} (${only.join(', ')})` : head);
    for (const s of p.settings_differ) lines.push(`  settings differ: ${s.setting}: ${s.a} vs ${s.b}`);
    for (const w of p.warnings) lines.push(`  warning: ${w}`);
    if (p.signals_skipped.length) lines.push(`  not compared (missing on some shared question): ${p.signals_skipped.map((s) => SIGNAL_SHORT[s]).join(', ')}`);
  }
  const pct = Math.round(c.level * 100);
  const bootstrap = `${pct}% paired bootstrap intervals (basic, B = ${c.B}, seed ${c.seed})`;
  const methods = c.ece_method
    ? `ECE: ${pct}% interval for the difference of true ECEs from each model's headline interval at ${100 - (100 - pct) / 2}%, joined by Bonferroni (${c.ece_method}); other metrics: ${bootstrap}`
    : bootstrap;
  lines.push(`Differences B − A. ${methods}; p two-sided, adjusted by Holm within each metric (every pair × signal).`);
  return lines;
}

export function comparisonMarkdown(c: ReportComparison): string {
  return comparisonPreamble(c).map((l) => `${l.replace(/^ +/, '- ')}\n`).join('') + '\n' + headlineMarkdown(comparisonTable(c), 3);
}

export function comparisonLatex(c: ReportComparison): string {
  const caption = latexText(comparisonPreamble(c).map((l) => l.trim()).join(' '));
  return headlineLatex(comparisonTable(c), caption, 3);
}
