import { expect, test } from 'vitest';
import { leaderboardHtml } from '../../../src/export/leaderboard-html';
import { escapeHtml } from '../../../src/export/static-page';
import { leaderboardTable } from '../../../src/pipeline/leaderboard-export';
import { leaderboard } from '../../../src/pipeline/leaderboard';
import { compareEntries } from '../../../src/pipeline/report-alignment';
import { sampleReport } from '../share/report-fixture';

test('the leaderboard page holds every row of the table, escapes every name and has no script', () => {
  const doc = sampleReport({ questions: 12, samples: false });
  doc.models[1].model = '</td><script>alert(1)</script><img src=x onerror=alert(2)>';
  const lb = leaderboard(compareEntries([{ source: 'r.json', document: doc }]), 'sem1', { B: 30 });
  const html = leaderboardHtml(lb, 'Board <b>');
  expect(html).not.toMatch(/<script|<img|<b>/i);
  expect(html).toContain('&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(html).toContain('<title>Board &lt;b&gt;</title>');
  expect(html).toContain("default-src 'none'");
  const table = leaderboardTable(lb);
  expect(html.match(/<tr>/g)).toHaveLength(table.rows.length + 1);
  // The model's name heads its row, its rank after it.
  expect(html).toContain(`<tr><th scope="row">${escapeHtml(table.rows[0][1])}</th><td class="num">1</td>`);
  // The caption as text: LaTeX's \% is a plain %.
  expect(html).toContain('95% interval');
  expect(html).not.toContain('\\%');
});
