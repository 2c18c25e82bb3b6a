/**
 * The leaderboard as a self-contained HTML page (issue 28): the table for people
 * (pipeline/leaderboard-export.ts) with its caption, styled inline for light and dark, with no
 * script at all, so the file opens anywhere offline and a hostile model name stays text: every
 * cell is escaped here, and a Content-Security-Policy forbids scripts and loads from elsewhere.
 */
import type { Leaderboard } from '../pipeline/leaderboard';
import { leaderboardCaption, leaderboardTable } from '../pipeline/leaderboard-export';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1a1d23; --bg: #fff; --muted: #5b6270; --line: #d5d9e0; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8ec; --bg: #15171c; --muted: #a3a9b5; --line: #373c47; } }
body { font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 1.5rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
caption, p { color: var(--muted); text-align: left; max-width: 72ch; }
`;

/** The page's text. `title` and every cell are escaped; numbers are the report's rounding. */
export function leaderboardHtml(lb: Leaderboard, title = 'Leaderboard'): string {
  const table = leaderboardTable(lb);
  const caption = leaderboardCaption(lb).replace(/\\%/g, '%');
  const numeric = new Set([0, 2, 3, 5, 6, 7, 8]);
  const head = table.header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const rows = table.rows
    .map((r) => `<tr>${r.map((c, i) => (i === 1 ? `<th scope="row">${escapeHtml(c)}</th>` : `<td${numeric.has(i) ? ' class="num"' : ''}>${escapeHtml(c)}</td>`)).join('')}</tr>`)
    .join('\n');
  const skipped = lb.skipped.length ? `<p>Left out: ${lb.skipped.map((s) => `${escapeHtml(s.name)} (${escapeHtml(s.reason)})`).join('; ')}.</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<div class="scroll"><table>
<caption>${escapeHtml(caption)}</caption>
<thead><tr>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
${skipped}
<p>Made with Sem-ECE: each model of each report is one entry; ECE is the paper's plug-in estimate with a 95% interval for the population ECE.</p>
</main>
</body>
</html>
`;
}
