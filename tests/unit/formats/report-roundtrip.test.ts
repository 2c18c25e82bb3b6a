/** Round trips of the real demo report (computed by the pipeline from public/demo) through every export. */
import { expect, test } from 'vitest';
import Papa from 'papaparse';
import { demoDocument } from '../../e2e/report-fixture';
import { parseReport } from '../../../src/formats/report-import';
import { CSV_DECIMALS, reportToCsv, reportToJson } from '../../../src/formats/report-export';
import { MAX_SHARE_URL_LENGTH, decodePayload, makeShareLink, reduceReport } from '../../../src/share/codec';

const doc = demoDocument();

test('demo report → JSON → import gives the same document, every number bit for bit', () => {
  const back = parseReport(reportToJson(doc));
  expect(back.ok).toBe(true);
  expect(back.ok && back.value).toEqual(doc);
  expect(back.ok && back.value.models[1].metrics.bootstrap).toEqual(doc.models[1].metrics.bootstrap);
});

test('demo report → CSV has one row per model × question with the same Sem1, Sem2 and verbalized, rounded to CSV_DECIMALS', () => {
  const rows = Papa.parse<Record<string, string>>(reportToCsv(doc), { header: true, skipEmptyLines: true }).data;
  const all = doc.models.flatMap((m) => m.questions.map((q) => ({ m, q })));
  expect(rows.length).toBe(all.length);
  rows.forEach((row, i) => {
    expect(row.model).toBe(all[i].m.model);
    expect(row.id).toBe(all[i].q.id);
    const r = (x: number) => Number(x.toFixed(CSV_DECIMALS));
    expect(Number(row.sem1)).toBe(r(all[i].q.sem1));
    expect(Number(row.sem2)).toBe(r(all[i].q.sem2));
    expect(Number(row.verbalized)).toBe(r(all[i].q.verbalized));
    for (const v of [row.sem1, row.sem2, row.verbalized, row.margin]) expect(v.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(CSV_DECIMALS);
  });
});

test('demo report → share link → open gives the same numbers at the level the link carries', () => {
  const link = makeShareLink(doc, 'http://127.0.0.1:4173/');
  expect(link.ok).toBe(true);
  if (!link.ok) return;
  expect(link.value.length).toBeLessThanOrEqual(MAX_SHARE_URL_LENGTH);
  const opened = decodePayload(link.value.url.split('#/shared/')[1]);
  expect(opened.ok && opened.value.report).toEqual(reduceReport(doc, link.value.detail));
  expect(opened.ok && opened.value.report.models.map((m) => m.metrics)).toEqual(doc.models.map((m) => m.metrics));
});
