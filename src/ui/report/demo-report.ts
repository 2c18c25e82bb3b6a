/**
 * The built-in demo report: the bundled demo samples (public/demo/: a manifest
 * and, per simulated model, the authors' clustered and graded JSONL) scored by the pipeline's
 * own reader and scorer — a real report document, not a picture, labelled as demo data.
 *
 * The same `buildDemoReport` runs in the page (over fetched files) and in Node tests and
 * benchmarks (over files read from disk), so both see the same document.
 */
import type { ReportDocument } from '../../model/report';
import type { Result } from '../../model/rows';
import { prefetchDemoFiles, type DemoFiles } from './demo-files';
import { readAuthorsRows } from '../../formats/authors-rows';
import { scoreAuthorsRows } from '../../pipeline/score';
import { buildReport, importedSettings } from '../../pipeline/score-output';

export { fetchDemoFiles, type DemoFiles } from './demo-files';

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
    // Every signal (entropy confidence exp(−H) beside Sem1, Sem2 and verbalized) in one pass.
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
  const files = await prefetchDemoFiles();
  return files.ok ? buildDemoReport(files.value, { smooth: false }) : files;
}
