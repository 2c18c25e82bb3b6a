import { expect, test } from 'vitest';
import { REPORT_MARKER, embedReport, escapeJsonForHtml } from '../../../src/export/embed';
import { parseReport } from '../../../src/formats/report-import';
import { MAX_STRING_LENGTH, fitReportLimits, reportAtDetail, truncationMarker } from '../../../src/formats/report-limits';
import { reportToJson } from '../../../src/formats/report-export';
import { utf8Length } from '../../../src/formats/utf8-length';
import { sampleReport } from '../share/report-fixture';

const TEMPLATE = `<!doctype html><html><head><title>Sem-ECE report</title></head><body><script type="application/json" id="semece-report">${REPORT_MARKER}</script></body></html>`;

/** The text an HTML parser gives the JSON element: everything up to the first "</script". */
function jsonElementText(html: string): string {
  const start = html.indexOf('id="semece-report">') + 'id="semece-report">'.length;
  return html.slice(start, html.toLowerCase().indexOf('</script', start));
}

test('hostile text cannot end the JSON element or open a comment, and reads back unchanged', () => {
  const doc = sampleReport();
  doc.title = 'a </script><script>alert(1)</script> <!-- b \u2028 c';
  doc.models[0].questions[0].question = '</SCRIPT >x<!--<script>';
  const { html } = embedReport(TEMPLATE, doc);
  const text = jsonElementText(html);
  expect(text).not.toMatch(/<\/script|<!--/i);
  const back = parseReport(text);
  expect(back.ok && back.value).toEqual(doc);
  expect(html).toContain('<title>a &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;!-- b \u2028 c · Sem-ECE</title>');
});

test('escapeJsonForHtml changes only characters JSON.parse reads back the same', () => {
  const json = JSON.stringify({ s: '<>&\u2028\u2029"' });
  expect(JSON.parse(escapeJsonForHtml(json))).toEqual(JSON.parse(json));
  expect(escapeJsonForHtml(json)).not.toContain('<');
});

test('a template without the marker, or with two, is refused', () => {
  expect(() => embedReport('<html></html>', sampleReport())).toThrow(/damaged/);
  expect(() => embedReport(TEMPLATE + REPORT_MARKER, sampleReport())).toThrow(/exactly once/);
});

test('a "$&" in the report is copied literally (no replacement patterns)', () => {
  const doc = sampleReport();
  doc.title = "$& $' $` $$";
  const back = parseReport(jsonElementText(embedReport(TEMPLATE, doc).html));
  expect(back.ok && back.value.title).toBe("$& $' $` $$");
});

test('a 200,000-character reply: the HTML export opens in the offline viewer, cut with a marker', () => {
  const doc = sampleReport();
  doc.models[0].questions[0].samples![0].raw = '<b>'.repeat(70_000).slice(0, 200_000);
  const text = jsonElementText(embedReport(TEMPLATE, doc).html);
  // What viewer.ts does with the element's text.
  const back = parseReport(text);
  expect(back.ok).toBe(true);
  if (!back.ok) return;
  const sample = back.value.models[0].questions[0].samples![0];
  expect(sample.rawLength).toBe(200_000);
  expect(sample.raw!.length).toBe(MAX_STRING_LENGTH);
  expect(sample.raw!.endsWith(truncationMarker(200_000))).toBe(true);
  expect(sample.raw!.startsWith('<b><b>')).toBe(true);
  expect(back.value).toEqual(fitReportLimits(doc));
});

test('a report larger than the viewer opens: the page leaves raw replies out, and says so, and still opens', () => {
  const doc = sampleReport();
  doc.models[0].questions[0].question = '<'.repeat(1000); // 1,000 characters, 6,000 once escaped for HTML
  const full = embedReport(TEMPLATE, doc);
  expect(full.leftOut).toBe('nothing');
  const embedded = utf8Length(jsonElementText(full.html));
  // The limit applies to the escaped text the viewer reads, not to the JSON before escaping.
  const json = reportToJson(doc);
  expect(embedded - utf8Length(json)).toBe(5 * json.split('<').length - 5);
  expect(embedded - utf8Length(json)).toBeGreaterThanOrEqual(5000);
  const cut = embedReport(TEMPLATE, doc, embedded - 1);
  expect(cut.leftOut).toBe('raw replies');
  const back = parseReport(jsonElementText(cut.html));
  expect(back.ok && back.value).toEqual(reportAtDetail(doc, 'raw replies'));
  expect(() => embedReport(TEMPLATE, doc, 1000)).toThrow(/too large for one file: .* MB even without raw replies, samples and classes/);
});
