/**
 * The app side of the offline report: fetch the viewer template (built into dist/ next to the
 * app, loaded only on demand) and put the report in it.
 */
import type { ReportDocument } from '../model/report';
import type { Result } from '../model/rows';
import { VIEWER_TEMPLATE_FILE, embedReport, type EmbeddedReport } from './embed';

let template: Promise<string> | null = null;

async function loadTemplate(): Promise<string> {
  const url = new URL(VIEWER_TEMPLATE_FILE, document.baseURI);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the offline viewer (${VIEWER_TEMPLATE_FILE}) could not be loaded: HTTP ${response.status}`);
  return response.text();
}

/** The self-contained HTML file's text for a report, and what it left out to stay openable. */
export async function htmlReport(doc: ReportDocument): Promise<Result<EmbeddedReport>> {
  template ??= loadTemplate();
  try {
    return { ok: true, value: embedReport(await template, doc) };
  } catch (e) {
    template = null; // let a later click retry
    return { ok: false, error: { kind: 'export-html', message: `The HTML file could not be made: ${(e as Error).message}` } };
  }
}
