import { expect, test } from 'vitest';
import { buildDemoReport } from '../../../src/demo/demo-report';
import { readDemoFiles } from '../../../src/demo/vite-plugin-demo-report';

test('the demo report is scored from the bundled demo files, marked as demo data, smooth ECE and its bandwidth included', () => {
  const built = buildDemoReport(readDemoFiles('public'));
  if (!built.ok) throw new Error(built.error.message);
  const doc = built.value;
  expect(doc.demo).toBe(true);
  expect(doc.models.length).toBeGreaterThan(0);
  for (const m of doc.models) {
    expect(m.metrics.questions).toBe(m.questions.length);
    expect(Number.isFinite(m.metrics.signals.sem1!.ece)).toBe(true);
    expect(Number.isFinite(m.metrics.signals.sem1!.smoothEce)).toBe(true);
    expect(m.metrics.signals.sem1!.smoothEceBandwidth).toBeGreaterThan(0);
    // Raw replies are kept so the drill-down can show them.
    expect(m.questions[0].samples?.[0].raw).toMatch(/Answer:/);
  }
  const quick = buildDemoReport(readDemoFiles('public'), { smooth: false });
  expect(quick.ok && quick.value.models[0].metrics.signals.sem1!.smoothEce).toBeNaN();
});

test("a corrupt demo file is refused with the reader's message, not a crash", () => {
  const files = readDemoFiles('public');
  const name = files.manifest.models[0].clustered;
  files.texts[name] = '{not json\n';
  const r = buildDemoReport(files);
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error.message + (r.error.where ?? '')).toContain(name);
});
