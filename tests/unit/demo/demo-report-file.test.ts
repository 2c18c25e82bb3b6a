import { describe, expect, test } from 'vitest';
import { DEMO_REPORT_FILE, decodeDemoReport, encodeDemoReport } from '../../../src/demo/demo-report-file';
import { sampleReport } from '../share/report-fixture';
import { firstDifference } from './same-bits';

describe('the demo report file', () => {
  test('gives back the very document: NaN, −0 and ±Infinity restored, every other number and text as written', () => {
    const doc = sampleReport();
    const m = doc.models[0].metrics;
    m.signals.sem1!.smoothEce = -0;
    m.bootstrap.d_conf = [Infinity, -Infinity, NaN];
    const back = decodeDemoReport(encodeDemoReport(doc));
    if (!back.ok) throw new Error(back.error.message);
    expect(firstDifference(back.value, doc)).toBeNull();
    expect(Object.is(back.value.models[0].metrics.signals.sem1!.smoothEce, -0)).toBe(true);
    expect(back.value.models[0].metrics.bootstrap.d_conf).toEqual([Infinity, -Infinity, NaN]);
    // A plain JSON round trip would not: that is why the file lists them.
    expect(firstDifference(JSON.parse(JSON.stringify(doc)), doc)).not.toBeNull();
  });

  test('a broken file is refused with a message naming the file and what is wrong', () => {
    const good = JSON.parse(encodeDemoReport(sampleReport()));
    const refusal = (text: string) => {
      const r = decodeDemoReport(text);
      if (r.ok) throw new Error('expected a refusal');
      expect(r.error.where).toBe(DEMO_REPORT_FILE);
      return r.error.message;
    };
    expect(refusal('<!doctype html>')).toMatch(/^The demo report is not valid JSON: /);
    expect(refusal(JSON.stringify({ ...good, format: 'other' }))).toBe('The demo report file is not a semece-demo-report file.');
    expect(refusal(JSON.stringify({ ...good, version: 9 }))).toBe('The demo report file is version 9; this app reads version 1.');
    expect(refusal(JSON.stringify({ ...good, report: { models: [] } }))).toBe('The demo report file holds no report with models.');
    expect(refusal(JSON.stringify({ ...good, special: [[['models', 0, 'model'], 'NaN']] }))).toMatch(/special number at models\.0\.model, which it does not hold/);
    expect(refusal(JSON.stringify({ ...good, special: [[['x'], 'seven']] }))).toMatch(/cannot read: \[\["x"\],"seven"\]/);
  });

  test('no listed path can reach a prototype', () => {
    const good = JSON.parse(encodeDemoReport(sampleReport()));
    const r = decodeDemoReport(JSON.stringify({ ...good, special: [[['__proto__', 'toString'], 'NaN']] }));
    expect(r.ok).toBe(false);
    expect(typeof ({} as { toString: unknown }).toString).toBe('function');
  });
});
