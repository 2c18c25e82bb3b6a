import { expect, test } from 'vitest';
import { buildDemoReport, fetchDemoFiles } from '../../../../src/ui/report/demo-report';
import { demoDocument } from '../../../e2e/report-fixture';
import { readFileSync } from 'node:fs';
import path from 'node:path';

test('the demo report is scored from the bundled demo files and marked as demo data', () => {
  const doc = demoDocument();
  expect(doc.demo).toBe(true);
  expect(doc.models.length).toBeGreaterThan(0);
  for (const m of doc.models) {
    expect(m.metrics.questions).toBe(m.questions.length);
    expect(Number.isFinite(m.metrics.signals.sem1!.ece)).toBe(true);
    // Raw replies are kept so the drill-down can show them.
    expect(m.questions[0].samples?.[0].raw).toMatch(/Answer:/);
  }
});

test('fetchDemoFiles reads the manifest and every listed file; a missing file is a typed error naming it', async () => {
  const dir = path.resolve('public/demo');
  const serve = (missing?: string): typeof fetch => (async (url: URL | RequestInfo) => {
    const name = path.basename(new URL(String(url)).pathname);
    if (name === missing) return new Response('gone', { status: 404 });
    return new Response(readFileSync(path.join(dir, name), 'utf8'));
  }) as typeof fetch;
  const files = await fetchDemoFiles('http://127.0.0.1/demo/', serve());
  expect(files.ok).toBe(true);
  if (!files.ok) return;
  const built = buildDemoReport(files.value);
  expect(built.ok && built.value.models.map((m) => m.metrics.signals.sem1!.ece)).toEqual(demoDocument().models.map((m) => m.metrics.signals.sem1!.ece));

  const name = files.value.manifest.models[0].graded;
  const broken = await fetchDemoFiles('http://127.0.0.1/demo/', serve(name));
  expect(broken.ok).toBe(false);
  if (!broken.ok) expect(broken.error.message).toContain(name);
});

test('a corrupt demo file is refused with the reader\'s message, not a crash', () => {
  const dir = path.resolve('public/demo');
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const texts: Record<string, string> = {};
  for (const m of manifest.models) {
    texts[m.clustered] = readFileSync(path.join(dir, m.clustered), 'utf8');
    texts[m.graded] = readFileSync(path.join(dir, m.graded), 'utf8');
  }
  texts[manifest.models[0].clustered] = '{not json\n';
  const r = buildDemoReport({ manifest, texts });
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error.message + (r.error.where ?? '')).toContain(manifest.models[0].clustered);
});
