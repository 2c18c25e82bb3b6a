/**
 * A comparison of reports as a self-contained HTML page (issue 28): what differs first (the
 * settings, warnings, questions not shared: report-comparison-table.ts's preamble), then the
 * differences table, on a static page (static-page.ts: no script, every text escaped).
 */
import type { ReportComparison } from '../pipeline/report-comparison';
import { comparisonPreamble, comparisonTable } from '../pipeline/report-comparison-table';
import { escapeHtml, staticPage, tableHtml } from './static-page';

export function comparisonHtml(c: ReportComparison, title = 'Comparison of reports'): string {
  const lines = comparisonPreamble(c);
  const notes = lines.slice(0, -1).map((l) => `<li>${escapeHtml(l.trim())}</li>`).join('\n');
  return staticPage(title, `<h2>Before the numbers: what differs</h2>
<ul>
${notes}
</ul>
<h2>Differences</h2>
${tableHtml(comparisonTable(c), lines.at(-1) ?? '', 3)}`);
}
