/**
 * The leaderboard as a self-contained HTML page (issue 28): the table for people
 * (pipeline/leaderboard-export.ts) with its caption, on a static page (static-page.ts: no
 * script, every text escaped).
 */
import type { Leaderboard } from '../pipeline/leaderboard';
import { leaderboardCaption, leaderboardTable } from '../pipeline/leaderboard-export';
import { escapeHtml, staticPage, tableHtml } from './static-page';

export function leaderboardHtml(lb: Leaderboard, title = 'Leaderboard'): string {
  // Rank first, then the model's name: the name is the row's header.
  const t = leaderboardTable(lb);
  const table = { header: [t.header[1], t.header[0], ...t.header.slice(2)], rows: t.rows.map((r) => [r[1], r[0], ...r.slice(2)]) };
  const caption = leaderboardCaption(lb).replace(/\\%/g, '%');
  const skipped = lb.skipped.length ? `<p>Left out: ${lb.skipped.map((s) => `${escapeHtml(s.name)} (${escapeHtml(s.reason)})`).join('; ')}.</p>` : '';
  return staticPage(title, `${tableHtml(table, caption, 1)}
${skipped}
<p>Made with Sem-ECE: each model of each report is one entry; ECE is the paper's plug-in estimate with a 95% interval for the population ECE.</p>`);
}
