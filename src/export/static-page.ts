/**
 * Self-contained HTML pages of tables (the leaderboard, a comparison: issue 28): inline styles for
 * light and dark, no script at all, and a Content-Security-Policy that forbids scripts and loads
 * from elsewhere, so the file opens anywhere offline and a hostile model name or question stays
 * text: every piece of text is escaped here.
 */
import type { HeadlineTable } from '../formats/headline-table';

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
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
caption, p, li { color: var(--muted); text-align: left; max-width: 72ch; }
`;

/** A table as HTML: the first `textColumns` cells of a row are text (the first of them its header), the rest numbers. */
export function tableHtml(table: HeadlineTable, caption: string, textColumns = 1): string {
  const head = table.header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const rows = table.rows
    .map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${escapeHtml(c)}</th>` : `<td${i >= textColumns ? ' class="num"' : ''}>${escapeHtml(c)}</td>`)).join('')}</tr>`)
    .join('\n');
  return `<div class="scroll"><table>\n<caption>${escapeHtml(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table></div>`;
}

/** The page around `body` (already HTML: build it from escapeHtml and tableHtml). */
export function staticPage(title: string, body: string): string {
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
${body}
</main>
</body>
</html>
`;
}
