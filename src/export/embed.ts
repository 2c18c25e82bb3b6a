/**
 * Puts a report into the offline viewer template (dist/report-viewer.html, built by
 * vite-plugin-offline-report.ts). The JSON goes into a <script type="application/json"> element,
 * where the HTML parser ends the element at the first "</script" and treats "<!--" specially:
 * every "<" is therefore written as the JSON escape \u003c, which JSON.parse reads back as "<".
 * U+2028/U+2029 are escaped too, so the text is also safe if ever read as a JS literal.
 * The viewer reads the element's text with the importer's limits, so the embedded JSON is fitted
 * to MAX_REPORT_BYTES after escaping (report-limits.ts: raw replies, then samples, left out).
 */
import type { ReportDocument } from '../model/report';
import { reportToJson } from '../formats/report-export';
import { fitReportSize, type LeftOut } from '../formats/report-limits';

export const REPORT_MARKER = '__SEMECE_REPORT_JSON__';
export { VIEWER_TEMPLATE_FILE } from './template-file';

export function escapeJsonForHtml(json: string): string {
  return json.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export interface EmbeddedReport {
  html: string;
  /** What the page left out to stay within the size the viewer opens. */
  leftOut: LeftOut;
}

/** The template with the report inside; refuses a template that lacks the marker, or a report too large even without its samples. */
export function embedReport(template: string, doc: ReportDocument, limit?: number): EmbeddedReport {
  const at = template.indexOf(REPORT_MARKER);
  if (at < 0 || template.indexOf(REPORT_MARKER, at + 1) >= 0) {
    throw new Error('The offline report template is damaged: it must hold the report marker exactly once.');
  }
  const json = fitReportSize(doc, (d) => escapeJsonForHtml(reportToJson(d)), limit);
  if (!json.ok) throw new Error(json.error.message);
  const safeTitle = doc.title.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const html =
    template.slice(0, at).replace('<title>Sem-ECE report</title>', () => `<title>${safeTitle} · Sem-ECE</title>`) +
    json.value.text +
    template.slice(at + REPORT_MARKER.length);
  return { html, leftOut: json.value.leftOut };
}
