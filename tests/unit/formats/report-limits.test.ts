import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
  MAX_STRING_LENGTH,
  fitReportLimits,
  truncateText,
  truncationMarker,
} from '../../../src/formats/report-limits';
import { reportToJson } from '../../../src/formats/report-export';
import { MAX_STRING_LENGTH as SCHEMA_LIMIT, parseReport, parseReportFile } from '../../../src/formats/report-schema';
import { buildReport, importedSettings } from '../../../src/pipeline/score-output';
import { sampleReport } from '../share/report-fixture';

const LONG = 200_000;
/** A reply that is not one repeated character, so a cut in the wrong place shows. */
const longReply = (length: number) => Array.from({ length: Math.ceil(length / 10) }, (_, i) => `${i % 10}abcdefghi`).join('').slice(0, length);

function reportWithLongReply(length = LONG) {
  const doc = sampleReport();
  doc.models[0].questions[0].samples![0].raw = longReply(length);
  return doc;
}

describe('truncateText', () => {
  test('text within the limit is returned as it is', () => {
    const text = longReply(MAX_STRING_LENGTH);
    expect(truncateText(text)).toBe(text);
  });

  test('longer text keeps its start, ends with the marker and its length, and fits the limit exactly', () => {
    const text = longReply(LONG);
    const cut = truncateText(text);
    expect(cut.length).toBe(MAX_STRING_LENGTH);
    expect(cut.endsWith('… [truncated: 200,000 characters]')).toBe(true);
    expect(text.startsWith(cut.slice(0, MAX_STRING_LENGTH - truncationMarker(LONG).length))).toBe(true);
  });

  test('a cut never leaves half a surrogate pair', () => {
    const marker = truncationMarker(LONG);
    // The emoji straddles the cut: its high surrogate would be the last kept unit.
    const keep = MAX_STRING_LENGTH - marker.length;
    const text = 'a'.repeat(keep - 1) + '😀' + 'b'.repeat(LONG - keep - 1);
    const cut = truncateText(text);
    expect(cut).toBe('a'.repeat(keep - 1) + marker);
    expect(/[\uD800-\uDBFF]$/.test(cut.slice(0, cut.length - marker.length))).toBe(false);
  });

  test('any text: within the limit, unchanged when it fits, a prefix and marker when not', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 40, max: 80 }), (text, limit) => {
        const cut = truncateText(text, limit);
        expect(cut.length).toBeLessThanOrEqual(Math.max(limit, truncationMarker(text.length).length));
        if (text.length <= limit) expect(cut).toBe(text);
        else {
          const marker = truncationMarker(text.length);
          expect(cut.endsWith(marker)).toBe(true);
          expect(text.startsWith(cut.slice(0, cut.length - marker.length))).toBe(true);
        }
      }),
    );
  });
});

describe('fitReportLimits', () => {
  test('the reader checks the same limit the writer cuts to', () => {
    expect(SCHEMA_LIMIT).toBe(MAX_STRING_LENGTH);
  });

  test('a document that fits is returned as the same object', () => {
    const doc = sampleReport();
    expect(fitReportLimits(doc)).toBe(doc);
  });

  test('a long raw reply is cut and its length recorded; nothing else changes and the input is untouched', () => {
    const doc = reportWithLongReply();
    const fitted = fitReportLimits(doc);
    const sample = fitted.models[0].questions[0].samples![0];
    expect(sample.raw!.length).toBe(MAX_STRING_LENGTH);
    expect(sample.rawLength).toBe(LONG);
    expect(doc.models[0].questions[0].samples![0].raw!.length).toBe(LONG);
    expect(fitted.models[1]).toBe(doc.models[1]);
    expect(fitted.models[0].metrics).toBe(doc.models[0].metrics);
    expect(fitted.models[0].questions[0].samples![1]).toBe(doc.models[0].questions[0].samples![1]);
  });

  test('buildReport cuts too, so a saved report opens again', () => {
    const doc = reportWithLongReply();
    const built = buildReport(doc.models, { title: 't', dataset: { name: 'd' }, settings: importedSettings() });
    expect(built.models[0].questions[0].samples![0].raw!.length).toBe(MAX_STRING_LENGTH);
    expect(parseReport(JSON.parse(JSON.stringify(built))).ok).toBe(true);
  });
});

describe('a report with a 200,000-character reply round-trips through its JSON export', () => {
  test('before: the reader refuses the document as it is in memory', () => {
    const raw = JSON.stringify(reportWithLongReply());
    const back = parseReport(raw);
    expect(back.ok).toBe(false);
    expect(!back.ok && back.error.message).toMatch(/samples\[0\]\.raw: text longer than 100,000 characters/);
  });

  test('export → Open report reads it back, with the marker and the original length', async () => {
    const doc = reportWithLongReply();
    const json = reportToJson(doc);
    // The way Open report reads a file the user picks.
    const back = await parseReportFile(new File([json], 'exported.json', { type: 'application/json' }));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    const sample = back.value.models[0].questions[0].samples![0];
    expect(sample.rawLength).toBe(LONG);
    expect(sample.raw!.endsWith(truncationMarker(LONG))).toBe(true);
    expect(sample.raw!.slice(0, 1000)).toBe(longReply(1000));
    // Everything else reads back as it was written.
    const expected = fitReportLimits(doc);
    expect(back.value).toEqual(expected);
    expect(parseReport(reportToJson(doc, true)).ok).toBe(true);
  });

  test('every long string is cut, not only replies', () => {
    const doc = reportWithLongReply();
    doc.models[0].questions[1].question = longReply(LONG + 5);
    doc.title = longReply(MAX_STRING_LENGTH + 1);
    const back = parseReport(reportToJson(doc));
    expect(back.ok).toBe(true);
    expect(back.ok && back.value.models[0].questions[1].question.endsWith(truncationMarker(LONG + 5))).toBe(true);
  });
});
