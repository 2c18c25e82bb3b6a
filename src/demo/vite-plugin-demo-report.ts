/**
 * Build step for the first page: scores the demo samples in public/demo/ once, when the app is
 * built, and writes the document as demo/report.json (demo-report-file.ts) beside the app. The
 * first page fetches that file and draws it, so neither the scorer nor the bootstrap is in its
 * JavaScript, and no visitor waits for them. The dev server serves the same file, scored on
 * request from the files on disk, so an edited demo file shows on reload.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runnerImport, type Plugin } from 'vite';
import type { ReportDocument } from '../model/report.ts';
import type { Result } from '../model/rows.ts';
import type { DemoFiles } from './demo-report.ts';
import { DEMO_REPORT_FILE, encodeDemoReport } from './demo-report-file.ts';
import type { DemoManifest } from './manifest.ts';

type BuildDemoReport = (files: DemoFiles) => Result<ReportDocument>;

/** The demo files listed by `<publicDir>/demo/manifest.json`, read from disk. */
export function readDemoFiles(publicDir: string): DemoFiles {
  const dir = path.join(publicDir, 'demo');
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as DemoManifest;
  const texts: DemoFiles['texts'] = {};
  for (const m of manifest.models) {
    texts[m.clustered] = readFileSync(path.join(dir, m.clustered), 'utf8');
    texts[m.graded] = readFileSync(path.join(dir, m.graded), 'utf8');
  }
  return { manifest, texts };
}

/** The text of demo/report.json for the demo files under `publicDir`; a scoring failure throws, failing the build. */
export function demoReportText(publicDir: string, buildDemoReport: BuildDemoReport): string {
  const built = buildDemoReport(readDemoFiles(publicDir));
  if (!built.ok) throw new Error(`demo report: ${built.error.message}${built.error.where ? ` (${built.error.where})` : ''}`);
  return encodeDemoReport(built.value);
}

/**
 * The scorer, loaded through Vite's own module runner when first needed rather than imported
 * here: the config loader would otherwise bundle the whole pipeline into the config (and warn
 * about every extensionless import in it).
 */
async function loadScorer(root: string): Promise<BuildDemoReport> {
  const entry = path.resolve(root, 'src/demo/demo-report.ts');
  const { module } = await runnerImport<{ buildDemoReport: BuildDemoReport }>(entry, { configFile: false, root, logLevel: 'error' });
  return module.buildDemoReport;
}

export function demoReport(): Plugin {
  let publicDir = '';
  let root = '';
  let scorer: Promise<BuildDemoReport> | undefined;
  const text = async () => demoReportText(publicDir, await (scorer ??= loadScorer(root)));
  return {
    name: 'semece-demo-report',
    configResolved(config) {
      publicDir = config.publicDir;
      root = config.root;
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: DEMO_REPORT_FILE, source: await text() });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? '').split('?')[0];
        if (!url.endsWith(`/${DEMO_REPORT_FILE}`)) return next();
        text().then(
          (body) => {
            res.setHeader('Content-Type', 'application/json');
            res.end(body);
          },
          (err: unknown) => next(err),
        );
      });
    },
  };
}
