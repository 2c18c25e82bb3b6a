/**
 * Report versions (formats/report-versions.ts, docs/REPORT-FORMAT.md): a report written at every
 * version this app has had opens, through a file, a share link and the store, upgraded to the
 * current shape with every value as written; a newer one is refused as newer.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseReport } from '../../../src/formats/report-import';
import { REPORT_VERSIONS } from '../../../src/formats/report-versions';
import { reportToJson } from '../../../src/formats/report-export';
import { REPORT_VERSION, type ReportDocument } from '../../../src/model/report';
import { decodePayload, encodePayload } from '../../../src/share/codec';
import { readStoredReport } from '../../../src/store/report-records';

/** The fixtures, oldest first, with the version each was written at (tests/fixtures/report-versions/README.md). */
const FIXTURES = [
  { file: 'v1-first.json', version: 1 },
  { file: 'v1-2026-12-02.json', version: 1 },
  { file: 'v1-last.json', version: 1 },
  { file: 'v2.json', version: 2 },
  { file: 'v3.json', version: 3 },
] as const;

const text = (file: string) => readFileSync(`tests/fixtures/report-versions/${file}`, 'utf8');

function opened(input: unknown): ReportDocument {
  const r = parseReport(input);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

type Leaf = string | number | boolean | null;

/** Every leaf of a JSON value by its path ("models.0.metrics.accuracy"). */
function leaves(value: unknown, path = '', out = new Map<string, Leaf>()): Map<string, Leaf> {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}.${i}`, out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, `${path}.${k}`, out);
  else out.set(path, value as Leaf);
  return out;
}

/**
 * The opened document holds exactly the file's values at the file's paths, the version aside:
 * numbers bit for bit (Object.is), null kept or read back as NaN (an undefined statistic), and a
 * question's null signal (not available for that question) left out, as the schema documents.
 */
function expectSameValues(file: unknown, doc: ReportDocument) {
  const want = leaves(file);
  const got = leaves(doc);
  want.delete('.version');
  got.delete('.version');
  for (const [path, v] of want) {
    if (v === null && /\.questions\.\d+\.signals\./.test(path)) {
      expect(got.has(path), path).toBe(false);
      continue;
    }
    const g = got.get(path);
    if (v === null) expect(g === null || Number.isNaN(g), path).toBe(true);
    else expect(Object.is(g, v), `${path}: ${String(g)} !== ${String(v)}`).toBe(true);
    got.delete(path);
  }
  expect([...got.keys()], 'values the file does not hold').toEqual([]);
}

describe('every version opens, upgraded, with the same values', () => {
  test('the fixtures are what their versions wrote', () => {
    for (const f of FIXTURES) expect(JSON.parse(text(f.file))).toMatchObject({ format: 'semece-report', version: f.version });
    // One fixture per version this app has had, the current one included.
    expect(new Set(FIXTURES.map((f) => f.version))).toEqual(new Set(Array.from({ length: REPORT_VERSION }, (_, i) => i + 1)));
  });

  test.each(FIXTURES)('$file opens as a version-$version file and is upgraded to the current version', ({ file }) => {
    const doc = opened(text(file));
    expect(doc.version).toBe(REPORT_VERSION);
    expectSameValues(JSON.parse(text(file)), doc);
  });

  test('the last version-1 report and the version-2 report of the same rows are one document once upgraded', () => {
    const upgraded = opened(text('v1-last.json'));
    const current = opened(text('v2.json'));
    // Written minutes apart by two builds: only the time it was made differs.
    expect({ ...upgraded, createdAt: current.createdAt }).toEqual(current);
  });

  test('an older shape lacks only what was added since, and its per-question values read as the newest', () => {
    const first = opened(text('v1-first.json'));
    const current = opened(text('v2.json'));
    expect(first.models[0].metrics.eceInference).toBeUndefined();
    expect(first.models[0].metrics.comparison).toBeUndefined();
    expect(first.manifest).toBeUndefined();
    const row = (q: ReportDocument['models'][number]['questions'][number]) => [q.id, q.sem1, q.sem2, q.verbalized, q.correct, q.margin, q.regime];
    expect(first.models[0].questions.map(row)).toEqual(current.models[0].questions.map(row));
    // Kept as written, not recomputed: the first builds' MCE and Brier parts were defined otherwise (docs/REPORT-FORMAT.md).
    expect(first.models[0].metrics.signals.sem1!.brier.withinBinVariance).toBeUndefined();
    expect(first.models[0].metrics.signals.sem1!.mce).not.toBe(current.models[0].metrics.signals.sem1!.mce);
  });

  test('a version-2 report opens without the signals and metrics version 3 added, none computed on import', () => {
    const v2 = opened(text('v2.json'));
    const v3 = opened(text('v3.json'));
    expect(v2.models[0].metrics.rejection).toBeUndefined();
    expect(v2.models[0].metrics.recalibration).toBeUndefined();
    expect(Object.keys(v2.models[0].metrics.signals)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence']);
    expect(Object.keys(v3.models[0].metrics.signals)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence', 'semantic_entropy', 'num_sets', 'eigv', 'degree', 'eccentricity', 'lexical_similarity']);
    // The signals both versions scored are the same numbers.
    for (const s of ['sem1', 'sem2', 'verbalized', 'entropyConfidence'] as const) expect(v3.models[0].metrics.signals[s]).toEqual(v2.models[0].metrics.signals[s]);
    expect(v3.models[0].metrics.bootstrap).toEqual(v2.models[0].metrics.bootstrap);
  });

  test('an upgraded report is written back at the current version and reads back equal', () => {
    for (const f of FIXTURES) {
      const doc = opened(text(f.file));
      const written = reportToJson(doc);
      expect(JSON.parse(written).version).toBe(REPORT_VERSION);
      expect(opened(written)).toEqual(doc);
    }
  });
});

describe('the same chain on every way in', () => {
  test('a share link made by a version-1 build opens, upgraded', () => {
    const v1 = JSON.parse(text('v1-last.json'));
    for (const detail of ['full', 'rows', 'summary'] as const) {
      const shared = decodePayload(encodePayload(v1 as ReportDocument, detail));
      if (!shared.ok) throw new Error(shared.error.message);
      expect(shared.value.report.version).toBe(REPORT_VERSION);
      expect(shared.value.report.models[0].metrics).toEqual(opened(text('v2.json')).models[0].metrics);
    }
  });

  test('a report saved by a version-1 build opens from the store, upgraded', () => {
    const v1 = JSON.parse(text('v1-first.json'));
    const doc = readStoredReport('old', { runId: 'old', document: v1, savedAt: '2026-11-30T00:00:00.000Z' });
    expect(doc).toEqual(opened(text('v1-first.json')));
  });

  test('every older version has its step, and the chain ends at the version this app writes', () => {
    expect(REPORT_VERSIONS.current).toBe(REPORT_VERSION);
    for (let v = 1; v < REPORT_VERSION; v++) expect(typeof REPORT_VERSIONS.steps[v], `step from ${v}`).toBe('function');
  });
});

describe('versions this app cannot read', () => {
  test('a report from a newer version says so, not a field error', () => {
    const newer = { ...JSON.parse(text('v2.json')), version: REPORT_VERSION + 1, aFieldFromTheFuture: {} };
    const r = parseReport(newer);
    expect(r).toMatchObject({ ok: false, error: { kind: 'report-import', where: 'version' } });
    expect(!r.ok && r.error.message).toBe(
      `This report was made by a newer version of the app (report version ${REPORT_VERSION + 1}; this app reads versions 1 to ${REPORT_VERSION}): open it in an up-to-date Sem-ECE.`,
    );
  });

  test('a missing or malformed version is refused by name', () => {
    const doc = JSON.parse(text('v2.json'));
    for (const version of [undefined, 0, 1.5, '2', null]) {
      const r = parseReport({ ...doc, version });
      expect(!r.ok && r.error.message).toMatch(/^Unsupported report version .*: this app reads versions 1 to \d+\.$/);
      expect(!r.ok && r.error.where).toBe('version');
    }
  });
});
