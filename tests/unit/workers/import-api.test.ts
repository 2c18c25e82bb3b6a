/**
 * The import worker's API, called directly (no Worker): the same documents and the same messages
 * as decodePayload and parseReportFile, with progress from the first phase to the last.
 */
import { describe, expect, test } from 'vitest';
import { openReportFile, openSharedLink } from '../../../src/workers/import-api';
import { importClient } from '../../../src/workers/import-client';
import { decodePayload, encodePayload } from '../../../src/share/codec';
import { parseReportFile } from '../../../src/formats/report-schema';
import { reportToJson } from '../../../src/formats/report-export';
import type { ImportProgress } from '../../../src/formats/import-progress';
import { sampleReport } from '../share/report-fixture';

const rows = (n: number) => 2 * n; // the fixture has two models

describe('openSharedLink', () => {
  test('returns the document decodePayload returns, reporting inflating first and validating every row last', () => {
    const doc = sampleReport({ questions: 300 });
    const payload = encodePayload(doc, 'rows');
    const seen: ImportProgress[] = [];
    const result = openSharedLink(payload, (p) => seen.push(p));
    expect(result).toEqual(decodePayload(payload));
    expect(result.ok && result.value.detail).toBe('rows');
    expect(seen[0]).toEqual({ phase: 'inflating', done: 0, total: expect.any(Number), unit: 'bytes' });
    expect(seen.at(-1)).toEqual({ phase: 'validating', total: rows(300), unit: 'rows' });
  });

  test('a damaged or forged link gets the same message as today', () => {
    for (const payload of ['', 'AAAA-not-a-report', '!!!', encodePayload({ ...sampleReport(), version: 9 } as never, 'rows')]) {
      const result = openSharedLink(payload, () => undefined);
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
      new File([JSON.stringify({ ...good, version: 2 })], 'newer.json'),
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

describe('importClient where no worker can start (Node has no Worker)', () => {
  test('opens the link and the file on the main thread with the same results', async () => {
    const doc = sampleReport({ questions: 5 });
    const payload = encodePayload(doc, 'full');
    expect(await importClient.openSharedLink(payload)).toEqual(decodePayload(payload));
    const file = new File(['{"format":"nope"}'], 'x.json');
    expect(await importClient.openReportFile(file)).toEqual(await parseReportFile(file));
  });
});
