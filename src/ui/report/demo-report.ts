/**
 * The built-in demo report: the share engineer's bundled demo samples (public/demo/: a manifest
 * and, per simulated model, the authors' clustered and graded JSONL) scored by the pipeline's
 * own reader and scorer — a real report document, not a picture, labelled as demo data.
 *
 * The same `buildDemoReport` runs in the page (over fetched files) and in Node tests and
 * benchmarks (over files read from disk), so both see the same document.
 */
import type { DemoManifest } from '../../demo/manifest';
import type { ReportDocument } from '../../formats/report-document';
import type { Result, StageError } from '../../pipeline/types';
import { readAuthorsRows } from '../../formats/authors-rows';
import { scoreAuthorsRows } from '../../pipeline/score';
import { buildReport, importedSettings } from '../../pipeline/score-output';

export interface DemoFiles {
  manifest: DemoManifest;
  /** File name (as the manifest lists it) → text. */
  texts: Record<string, string>;
}

function fail(message: string, where?: string): { ok: false; error: StageError } {
  return { ok: false, error: { kind: 'demo', message, ...(where ? { where } : {}) } };
}

/** Fetches the manifest and every file it lists from `base` (a folder URL ending in '/'). */
export async function fetchDemoFiles(base: string | URL, fetchImpl: typeof fetch = fetch): Promise<Result<DemoFiles>> {
  const get = async (name: string): Promise<Result<string>> => {
    const url = new URL(name, base);
    try {
      const res = await fetchImpl(url);
      if (!res.ok) return fail(`HTTP ${res.status} for the demo file ${name}`, url.href);
      return { ok: true, value: await res.text() };
    } catch (err) {
      return fail(`The demo file ${name} could not be fetched: ${err instanceof Error ? err.message : String(err)}`, url.href);
    }
  };
  const manifestText = await get('manifest.json');
  if (!manifestText.ok) return manifestText;
  let manifest: DemoManifest;
  try {
    manifest = JSON.parse(manifestText.value) as DemoManifest;
  } catch (err) {
    return fail(`The demo manifest is not valid JSON: ${(err as Error).message}`, 'manifest.json');
  }
  if (!Array.isArray(manifest.models) || manifest.models.length === 0) return fail('The demo manifest lists no models.', 'manifest.json');
  const names = manifest.models.flatMap((m) => [m.clustered, m.graded]);
  const fetched = await Promise.all(names.map(get));
  const texts: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const r = fetched[i];
    if (!r.ok) return r;
    texts[names[i]] = r.value;
  }
  return { ok: true, value: { manifest, texts } };
}

/**
 * Scores the demo files into a report document marked as demo data (raw replies kept for the
 * drill-down). `smooth: false` skips the smooth ECE (the slowest metric, and not drawn by any
 * view) so the first page can show the report at once and fill it in afterwards.
 */
export function buildDemoReport(files: DemoFiles, options: { smooth?: boolean } = {}): Result<ReportDocument> {
  const models = [];
  let samples = 0;
  for (const m of files.manifest.models) {
    const rows = readAuthorsRows(
      { text: files.texts[m.clustered] ?? '', file: m.clustered },
      { text: files.texts[m.graded] ?? '', file: m.graded },
    );
    if (!rows.ok) return rows;
    const report = scoreAuthorsRows(rows.value, { samples: 'raw', smooth: options.smooth }, m.model);
    samples = Math.max(samples, ...report.questions.map((q) => q.n));
    models.push(report);
  }
  const doc = buildReport(models, {
    title: 'Demo report: two simulated models on the built-in questions',
    dataset: { name: 'Built-in demo questions', source: 'demo' },
    settings: importedSettings({}, samples),
    demo: true,
  });
  return { ok: true, value: doc };
}

/** The demo report for the page, from the files in `demo/` beside the app, without smooth ECE. */
export async function loadDemoReport(): Promise<Result<ReportDocument>> {
  const files = await fetchDemoFiles(new URL('demo/', document.baseURI));
  return files.ok ? buildDemoReport(files.value, { smooth: false }) : files;
}
