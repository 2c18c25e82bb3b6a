import { expect, test } from 'vitest';
import { REPORT_MARKER, embedReport, escapeJsonForHtml } from '../../../src/export/embed';
import { parseReport } from '../../../src/formats/report-schema';
import { MAX_STRING_LENGTH, fitReportLimits, truncationMarker } from '../../../src/formats/report-limits';
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
  const html = embedReport(TEMPLATE, doc);
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
  const back = parseReport(jsonElementText(embedReport(TEMPLATE, doc)));
  expect(back.ok && back.value.title).toBe("$& $' $` $$");
});

test('a 200,000-character reply: the HTML export opens in the offline viewer, cut with a marker', () => {
  const doc = sampleReport();
  doc.models[0].questions[0].samples![0].raw = '<b>'.repeat(70_000).slice(0, 200_000);
  const text = jsonElementText(embedReport(TEMPLATE, doc));
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
