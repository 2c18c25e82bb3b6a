import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
  MAX_STRING_LENGTH,
  fitReportLimits,
  fitReportSize,
  leftOutNote,
  reportAtDetail,
  truncateText,
  truncationMarker,
} from '../../../src/formats/report-limits';
import { utf8Length } from '../../../src/formats/utf8-length';
import { reportJsonFile, reportToJson } from '../../../src/formats/report-export';
import { MAX_STRING_LENGTH as SCHEMA_LIMIT } from '../../../src/formats/report-schema';
import { parseReport, parseReportFile } from '../../../src/formats/report-import';
import { buildReport, importedSettings } from '../../../src/pipeline/score-documents';
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
    expect(parseReport(reportToJson(doc, { pretty: true })).ok).toBe(true);
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

describe('fitReportSize: a file never larger than the reader opens', () => {
  const json = (d: Parameters<typeof reportToJson>[0]) => reportToJson(d);
  const sizes = () => {
    const doc = sampleReport();
    return {
      doc,
      full: utf8Length(json(doc)),
      noRaw: utf8Length(json(reportAtDetail(doc, 'raw replies'))),
      noSamples: utf8Length(json(reportAtDetail(doc, 'samples and classes'))),
    };
  };

  test('within the limit: everything, the same text as reportToJson', () => {
    const { doc, full } = sizes();
    expect(fitReportSize(doc, json, full)).toEqual({ ok: true, value: { text: json(doc), leftOut: 'nothing' } });
    const file = reportJsonFile(doc);
    expect(file.ok && file.value).toEqual({ text: reportToJson(doc), leftOut: 'nothing' });
  });

  test('over it: raw replies go first, then samples and classes; what is written opens again', () => {
    const { doc, full, noRaw, noSamples } = sizes();
    expect(noSamples).toBeLessThan(noRaw);
    expect(noRaw).toBeLessThan(full);
    const withoutRaw = reportJsonFile(doc, { limit: full - 1 });
    expect(withoutRaw.ok && withoutRaw.value.leftOut).toBe('raw replies');
    const back = withoutRaw.ok ? parseReport(withoutRaw.value.text) : null;
    expect(back?.ok && back.value).toEqual(reportAtDetail(doc, 'raw replies'));
    expect(back?.ok && back.value.models[0].questions[0].samples!.length).toBe(doc.models[0].questions[0].samples!.length);

    const withoutSamples = reportJsonFile(doc, { limit: noRaw - 1 });
    expect(withoutSamples.ok && withoutSamples.value.leftOut).toBe('samples and classes');
    const rows = withoutSamples.ok ? parseReport(withoutSamples.value.text) : null;
    expect(rows?.ok && rows.value.models.map((m) => m.metrics)).toEqual(doc.models.map((m) => m.metrics));
    expect(rows?.ok && rows.value.models[0].questions.every((q) => !q.samples && !q.classes)).toBe(true);
    // The input is never changed.
    expect(doc.models[0].questions[0].samples![0].raw).toBeDefined();
  });

  test('too large even without samples: refused with the size and the limit', () => {
    const { doc, noSamples } = sizes();
    const r = fitReportSize(doc, json, noSamples - 1);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toMatch(/^The report is too large for one file: \d+\.\d MB even without raw replies, samples and classes; a report file may be at most \d+\.\d MB\./);
  });

  test('sizes are counted in UTF-8 bytes, as a file is measured', () => {
    const doc = sampleReport({ samples: false });
    doc.title = '€'.repeat(1000);
    const chars = json(doc).length;
    // 1000 three-byte characters: the text has `chars` code units but 2000 more bytes.
    expect(fitReportSize(doc, json, chars + 1999).ok).toBe(false);
    expect(fitReportSize(doc, json, chars + 2000).ok).toBe(true);
  });

  test('a render past the engine\'s longest string (RangeError) counts as too large, and the next level is tried', () => {
    const doc = sampleReport();
    const r = fitReportSize(doc, (d) => {
      if (d.models[0].questions[0].samples?.[0]?.raw !== undefined) throw new RangeError('Invalid string length');
      return json(d);
    });
    expect(r.ok && r.value.leftOut).toBe('raw replies');
  });

  test('the note a writer shows names what was left out and the limit', () => {
    expect(leftOutNote('nothing')).toBe('');
    expect(leftOutNote('raw replies')).toBe('The raw replies were left out to keep the file within 200.0 MB, the largest report the app opens.');
  });
});

test('utf8Length agrees with TextEncoder on any text, lone surrogates included', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.oneof(fc.constant('\uD800'), fc.constant('\uDC00'), fc.constantFrom('a', 'é', '€', '😀')), maxLength: 30 }), (text) => {
      expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
    }),
  );
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
    }),
  );
});

describe('a report too large for its samples keeps its audit', () => {
  test("the audited questions' classes go into auditClasses, and the file read back gives them", () => {
    const doc = sampleReport({ questions: 30 });
    const m = doc.models[0];
    const audited = m.questions.slice(0, 4);
    doc.audit = audited.map((q) => ({ id: q.id, model: m.model, classes: [[0, 1, 2, 3, 4, 5]], grade: q.grade, by: 'ana', at: '2026-12-06T10:00:00Z' }));
    const withoutSamples = reportToJson(reportAtDetail(doc, 'samples and classes'));
    const withoutRaw = reportToJson(reportAtDetail(doc, 'raw replies'));
    // A limit between the two: the samples must go.
    const limit = Math.floor((utf8Length(withoutSamples) + utf8Length(withoutRaw)) / 2);
    expect(utf8Length(withoutSamples)).toBeLessThan(limit);
    const fitted = reportJsonFile(doc, { limit });
    if (!fitted.ok) throw new Error(fitted.error.message);
    expect(fitted.value.leftOut).toBe('samples and classes');
    const read = parseReport(JSON.parse(fitted.value.text));
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.models[0].questions.every((q) => q.samples === undefined)).toBe(true);
    expect(read.value.auditClasses).toEqual({ [m.model]: Object.fromEntries(audited.map((q) => [q.id, q.samples!.map((s) => s.cls)])) });
  });

  test('a report without an audit gains no auditClasses', () => {
    expect(reportAtDetail(sampleReport(), 'samples and classes').auditClasses).toBeUndefined();
  });
});
