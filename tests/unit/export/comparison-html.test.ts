import { expect, test } from 'vitest';
import { comparisonHtml } from '../../../src/export/comparison-html';
import { compareEntries } from '../../../src/pipeline/report-alignment';
import { compareReports } from '../../../src/pipeline/report-comparison';
import { comparisonTable } from '../../../src/pipeline/report-comparison-table';
import { sampleReport } from '../share/report-fixture';

test('the comparison page states what differs before the table, holds every row, escapes text and has no script', () => {
  const a = sampleReport({ questions: 8, samples: false });
  const b = sampleReport({ questions: 10, samples: false });
  b.models = [{ ...b.models[0], model: '<img src=x onerror=alert(1)>' }];
  b.settings.clustering = { method: 'embedding' };
  const c = compareReports(compareEntries([{ source: 'a.json', document: { ...a, models: [a.models[0]] } }, { source: 'b.json', document: b }]), { B: 30 });
  const html = comparisonHtml(c, 'Compare <b>');
  expect(html).not.toMatch(/<script|<img|<b>/i);
  expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  expect(html).toContain("default-src 'none'");
  expect(html.indexOf('what differs')).toBeLessThan(html.indexOf('<table>'));
  expect(html).toContain('clustered by exact');
  expect(html).toContain('2 only in');
  expect(html.match(/<tr>/g)).toHaveLength(comparisonTable(c).rows.length + 1);
  expect(html).toContain('adjusted by Holm');
});
