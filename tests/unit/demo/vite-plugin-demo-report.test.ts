/**
 * The demo report scored at build time is the document the first page used to compute itself,
 * bit for bit: it scored the fetched demo files without smooth ECE, then recomputed each model's
 * metrics (smooth ECE included) in the recompute worker and swapped them in.
 */
import { describe, expect, test, vi } from 'vitest';
import { decodeDemoReport, DEMO_REPORT_FILE } from '../../../src/demo/demo-report-file';
import { buildDemoReport } from '../../../src/demo/demo-report';
import { demoReport, demoReportText, readDemoFiles } from '../../../src/demo/vite-plugin-demo-report';
import { boundedModelMetrics, withMetrics } from '../../../src/pipeline/overrides-recompute';
import { packRows } from '../../../src/workers/recompute-rows';
import { unpackRows } from '../../../src/workers/recompute-api';
import type { SignalName } from '../../../src/model/report';
import { firstDifference } from './same-bits';

/** What Home.svelte computed in the page before the report was built with the app. */
function computedInThePage() {
  const first = buildDemoReport(readDemoFiles('public'), { smooth: false });
  if (!first.ok) throw new Error(first.error.message);
  let doc = first.value;
  for (let i = 0; i < doc.models.length; i++) {
    const model = doc.models[i];
    const signals = Object.keys(model.metrics.signals) as SignalName[];
    // recompute-client.ts → recompute.worker.ts, as the page sent it.
    const options = { bins: doc.settings.bins, B: doc.settings.bootstrap.B, bootstrapSeed: doc.settings.bootstrap.seed };
    doc = withMetrics(doc, i, boundedModelMetrics(unpackRows(packRows(model.questions, signals)), { excluded: model.metrics.excluded, signals }, options));
  }
  return doc;
}

describe('the build-time demo report', () => {
  const text = demoReportText('public', buildDemoReport);
  const built = decodeDemoReport(text);

  test('is the document the page computed, every number bit for bit', () => {
    if (!built.ok) throw new Error(built.error.message);
    expect(firstDifference(built.value, computedInThePage())).toBeNull();
    // and the one the scorer makes in one go, smooth ECE and its bandwidth included
    const direct = buildDemoReport(readDemoFiles('public'));
    expect(direct.ok && firstDifference(built.value, direct.value)).toBeNull();
    expect(built.value.models[0].metrics.signals.sem1!.smoothEceBandwidth).toBeGreaterThan(0);
  });

  test('the plugin emits it as demo/report.json in a build, and the dev server serves it', async () => {
    const plugin = demoReport();
    (plugin.configResolved as (c: { publicDir: string; root: string }) => void)({ publicDir: 'public', root: process.cwd() });
    const emitFile = vi.fn();
    await (plugin.generateBundle as (this: unknown) => Promise<void>).call({ emitFile });
    expect(emitFile).toHaveBeenCalledWith({ type: 'asset', fileName: DEMO_REPORT_FILE, source: text });

    let handler: ((req: { url?: string }, res: unknown, next: (err?: unknown) => void) => void) | undefined;
    (plugin.configureServer as (s: unknown) => void)({ middlewares: { use: (h: typeof handler) => (handler = h) } });
    const res = { headers: {} as Record<string, string>, body: '', setHeader(k: string, v: string) { this.headers[k] = v; }, end(b: string) { this.body = b; } };
    const next = vi.fn();
    handler!({ url: `/${DEMO_REPORT_FILE}?t=1` }, res, next);
    await vi.waitFor(() => expect(res.body).toBe(text));
    expect(res.headers['Content-Type']).toBe('application/json');
    handler!({ url: '/demo/manifest.json' }, res, next);
    expect(next).toHaveBeenCalledWith();
  });

  test('a missing demo file fails the build, naming it', async () => {
    expect(() => demoReportText('tests/no-such-public-dir', buildDemoReport)).toThrow(/manifest\.json/);
  });

  test('demo files that do not score fail the build with the reader\'s message', () => {
    const broken = () => buildDemoReport({ manifest: readDemoFiles('public').manifest, texts: {} });
    expect(() => demoReportText('public', broken)).toThrow(/^demo report: .*demo-model-a\.clustered\.jsonl/);
  });
});
