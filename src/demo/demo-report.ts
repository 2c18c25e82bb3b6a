/**
 * The built-in demo report: the bundled demo samples (public/demo/: a manifest and, per
 * simulated model, the authors' clustered and graded JSONL) scored by the pipeline's own reader
 * and scorer — a real report document, not a picture, labelled as demo data.
 *
 * It is scored once, when the app is built (vite-plugin-demo-report.ts writes it beside the app as
 * demo/report.json), so the first page draws it without running the pipeline; Node tests and
 * benchmarks build the same document from the same files with this function.
 */
import type { ReportDocument } from '../model/report';
import type { Result } from '../model/rows';
import { readAuthorsRows } from '../formats/authors-rows';
import { scoreAuthorsRows } from '../pipeline/score-stage';
import { buildReport, importedSettings } from '../pipeline/score-documents';
import type { DemoManifest } from './manifest';

export interface DemoFiles {
  manifest: DemoManifest;
  /** File name (as the manifest lists it) → text. */
  texts: Record<string, string>;
}

/**
 * Scores the demo files into a report document marked as demo data (raw replies kept for the
 * drill-down). `smooth: false` leaves smooth ECE out (NaN), as the page once did to draw sooner.
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
