/**
 * The first page's demo report: the document the build scored (demo/report.json beside the app,
 * written by src/demo/vite-plugin-demo-report.ts), fetched and read back bit for bit. Nothing here
 * scores anything, so the first page carries no scorer, and the fetch can start while the page's
 * code is still loading (the router calls `prefetchDemoReport`).
 */
import { DEMO_REPORT_FILE, decodeDemoReport } from '../../demo/demo-report-file';
import type { ReportDocument } from '../../model/report';
import type { Result, StageError } from '../../model/rows';

function fail(message: string, where: string): { ok: false; error: StageError } {
  return { ok: false, error: { kind: 'demo', message, where } };
}

/** The demo report from `base` (a folder URL ending in '/', the app's own). */
export async function fetchDemoReport(base: string | URL, fetchImpl: typeof fetch = fetch): Promise<Result<ReportDocument>> {
  const url = new URL(DEMO_REPORT_FILE, base);
  let text: string;
  try {
    const res = await fetchImpl(url);
    if (!res.ok) return fail(`HTTP ${res.status} for the demo report ${DEMO_REPORT_FILE}`, url.href);
    text = await res.text();
  } catch {
    // fetch rejects only for a network failure or an abort, whose own words ("Failed to fetch")
    // add nothing; wording it here keeps the error module out of the first page's JavaScript.
    return fail(`The demo report ${DEMO_REPORT_FILE} could not be fetched: the network or the app's server did not answer. Reload the page to try again.`, url.href);
  }
  return decodeDemoReport(text);
}

let prefetched: Promise<Result<ReportDocument>> | undefined;

/**
 * The demo report beside the app, fetched once per page: the router starts this while the home
 * page's code loads, and the page picks up the same promise. A failed fetch is forgotten, so the
 * next visit tries again.
 */
export function prefetchDemoReport(): Promise<Result<ReportDocument>> {
  if (!prefetched) {
    const pending = fetchDemoReport(new URL('./', document.baseURI));
    prefetched = pending;
    void pending.then((r) => {
      if (!r.ok && prefetched === pending) prefetched = undefined;
    });
  }
  return prefetched;
}
