import { describe, expect, test } from 'vitest';
import Papa from 'papaparse';
import { CSV_DECIMALS, csvColumns, reportFileName, reportToCsv, reportToJson } from '../../../src/formats/report-export';
import { parseReport } from '../../../src/formats/report-import';
import { sampleReport } from '../share/report-fixture';

describe('reportToJson', () => {
  test('NaN is written as null and read back as NaN', () => {
    const doc = sampleReport();
    const text = reportToJson(doc);
    expect(text).not.toContain('NaN');
    const back = parseReport(text);
    expect(back.ok && back.value).toEqual(doc);
    expect(reportToJson(doc, { pretty: true })).toContain('\n  "format": "semece-report"');
  });
});

describe('reportToCsv', () => {
  test('one row per model × question, every signal, numbers rounded to CSV_DECIMALS', () => {
    const doc = sampleReport({ questions: 5 });
    const parsed = Papa.parse<Record<string, string>>(reportToCsv(doc), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.length).toBe(10);
    expect(parsed.meta.fields).toEqual(csvColumns(doc));
    expect(parsed.meta.fields).toContain('stated');
    expect(parsed.meta.fields).not.toContain('logprob');
    const row = parsed.data[7];
    const q = doc.models[1].questions[2];
    expect(row.model).toBe('model-b');
    expect(row.id).toBe(q.id);
    const r = (x: number) => Number(x.toFixed(CSV_DECIMALS));
    expect(Number(row.sem1)).toBe(r(q.sem1));
    expect(Number(row.sem2)).toBe(r(q.sem2));
    expect(Number(row.verbalized)).toBe(r(q.verbalized));
    expect(Number(row.entropy)).toBe(r(q.entropy));
    expect(Number(row.std_margin)).toBe(r(q.stdMargin));
    expect(row.question).toBe(q.question);
    expect(row.grade).toBe(q.grade);
  });

  test('text that looks like a formula is neutralised; commas, quotes and newlines survive', () => {
    const doc = sampleReport({ questions: 1 });
    doc.models[0].questions[0].question = '=HYPERLINK("http://x","click")';
    doc.models[0].questions[0].gold = 'a, "quoted"\nanswer';
    const parsed = Papa.parse<Record<string, string>>(reportToCsv(doc), { header: true, skipEmptyLines: true });
    expect(parsed.data[0].question).toBe(`'=HYPERLINK("http://x","click")`);
    expect(parsed.data[0].gold).toBe('a, "quoted"\nanswer');
  });

  test('a multi-line cell or one with leading whitespace that starts like a formula is neutralised too', () => {
    const doc = sampleReport({ questions: 1 });
    doc.models[0].questions[0].question = '=1+1\nx';
    doc.models[0].questions[0].gold = '\n  @SUM(A1:A9)';
    doc.models[0].questions[0].modalLabel = '-2';
    const parsed = Papa.parse<Record<string, string>>(reportToCsv(doc), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0].question).toBe("'=1+1\nx");
    expect(parsed.data[0].gold).toBe("'\n  @SUM(A1:A9)");
    expect(parsed.data[0].modal_label).toBe("'-2");
    expect(Number(parsed.data[0].sem1)).toBe(doc.models[0].questions[0].sem1);
  });
});

test('reportFileName is safe and dated', () => {
  const doc = sampleReport();
  expect(reportFileName(doc, 'json')).toBe('semece-fixture-report-scriptalert1script-2026-11-29.json');
  doc.title = '../../';
  expect(reportFileName(doc, 'csv')).toBe('semece-report-2026-11-29.csv');
});
