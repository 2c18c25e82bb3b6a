/**
 * The import worker's API, called directly (no Worker): the same documents and the same messages
 * as decodePayload and parseReportFile, with progress from the first phase to the last.
 */
import { describe, expect, test } from 'vitest';
import { openReportFile, openSharedLink } from '../../../src/workers/import-api';
import { ROWS_PER_PART, rowCollector } from '../../../src/workers/import-rows';
import { REPORT_VERSION, type ReportQuestion } from '../../../src/model/report';
import { decodePayload, encodePayload } from '../../../src/share/codec';
import { parseReportFile } from '../../../src/formats/report-import';
import { reportToJson } from '../../../src/formats/report-export';
import type { ImportProgress } from '../../../src/formats/import-progress';
import { sampleReport } from '../share/report-fixture';
import { largeReport } from '../share/large-report';

const rows = (n: number) => 2 * n; // the fixture has two models

describe('openSharedLink', () => {
  test('returns the document decodePayload returns, reporting inflating first and validating every row last', async () => {
    const doc = sampleReport({ questions: 300 });
    const payload = encodePayload(doc, 'rows');
    const seen: ImportProgress[] = [];
    const result = await openSharedLink(payload, (p) => seen.push(p));
    expect(result).toEqual(decodePayload(payload));
    expect(result.ok && result.value.detail).toBe('rows');
    expect(seen[0]).toEqual({ phase: 'inflating', done: 0, total: expect.any(Number), unit: 'bytes' });
    expect(seen.at(-1)).toEqual({ phase: 'validating', total: rows(300), unit: 'rows' });
  });

  test('a damaged or forged link gets the same message as today, and no rows', async () => {
    for (const payload of ['', 'AAAA-not-a-report', '!!!', encodePayload({ ...sampleReport(), version: 9 } as never, 'rows')]) {
      const parts: unknown[] = [];
      const result = await openSharedLink(payload, () => undefined, (_m, rows) => void parts.push(rows));
      expect(parts).toEqual([]);
      expect(result.ok).toBe(false);
      expect(result).toEqual(decodePayload(payload));
    }
  });
});

describe('openReportFile', () => {
  test('returns the document parseReportFile returns, reading the bytes before parsing and validating', async () => {
    const text = reportToJson(sampleReport({ questions: 40 }));
    const file = new File([text], 'report.json', { type: 'application/json' });
    const seen: ImportProgress[] = [];
    const result = await openReportFile(file, (p) => seen.push(p));
    expect(result).toEqual(await parseReportFile(file));
    expect(result.ok).toBe(true);
    expect(seen[0]).toEqual({ phase: 'reading', done: 0, total: file.size, unit: 'bytes' });
    expect(seen.at(-1)).toEqual({ phase: 'validating', total: rows(40), unit: 'rows' });
  });

  test('a bad file gets the same message as today, naming the file', async () => {
    const good = JSON.parse(reportToJson(sampleReport({ questions: 3 })));
    const cases = [
      new File(['<html></html>'], 'page.html'),
      new File([JSON.stringify({ ...good, version: REPORT_VERSION + 1 })], 'newer.json'),
      new File([JSON.stringify(good).replace('"n":6', '"n":"six"')], 'wrong.json'),
    ];
    for (const file of cases) {
      const result = await openReportFile(file);
      expect(result.ok).toBe(false);
      expect(result).toEqual(await parseReportFile(file));
      if (!result.ok) expect(result.error.message.startsWith(`${file.name}: `)).toBe(true);
    }
  });
});

describe('rows in parts', () => {
  test('a link\'s rows go ahead in order, in parts of ROWS_PER_PART, each awaited; put back they are the checked document', async () => {
    const doc = largeReport(ROWS_PER_PART + 10);
    const payload = encodePayload(doc, 'rows');
    const collector = rowCollector();
    const parts: [number, number][] = [];
    let pending = 0;
    const result = await openSharedLink(payload, undefined, async (model, rows) => {
      // The next part is not sent before this one's promise settles.
      expect(pending).toBe(0);
      pending++;
      await new Promise((r) => setTimeout(r, 0));
      pending--;
      parts.push([model, rows.length]);
      collector.onRows(model, rows);
    });
    expect(parts).toEqual([[0, ROWS_PER_PART], [0, 10], [1, ROWS_PER_PART], [1, 10]]);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.report.models.map((m) => m.questions)).toEqual([[], []]);
    const expected = decodePayload(payload);
    expect({ ...result.value, report: collector.restore(result.value.report) }).toEqual(expected.ok && expected.value);
  });

  test('a file\'s rows too; a model without rows stays without', async () => {
    const doc = sampleReport({ questions: 30 });
    doc.models[1].questions = [];
    const file = new File([reportToJson(doc)], 'r.json');
    const collector = rowCollector();
    const result = await openReportFile(file, undefined, collector.onRows);
    if (!result.ok) throw new Error(result.error.message);
    const back = collector.restore(result.value);
    expect(back).toEqual(await parseReportFile(file).then((r) => r.ok && r.value));
    expect(back.models[1].questions).toEqual([] as ReportQuestion[]);
  });
});
