import { describe, expect, test } from 'vitest';
import { MAX_REPORT_BYTES, MAX_STRING_LENGTH } from '../../../src/formats/report-schema';
import { parseReport, parseReportFile } from '../../../src/formats/report-import';
import { sampleReport } from '../share/report-fixture';
import { REPORT_VERSION, type ReportDocument } from '../../../src/model/report';
import { scoreAuthorsRows } from '../../../src/pipeline/score-stage';
import { buildReport, importedSettings } from '../../../src/pipeline/score-documents';

function refusal(input: unknown): string {
  const r = parseReport(input);
  if (r.ok) throw new Error('expected the report to be refused');
  expect(r.error.kind).toBe('report-import');
  return r.error.message;
}

/** A JSON copy of the fixture that a test may damage. */
function json(): any {
  return JSON.parse(JSON.stringify(sampleReport()));
}

describe('parseReport round trip', () => {
  test('report → JSON → import gives the same numbers, NaN included', () => {
    const doc = sampleReport();
    const r = parseReport(JSON.stringify(doc));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual(doc);
    expect(r.value.models[0].metrics.signals.sem1!.auroc).toBeNaN();
    expect(r.value.models[0].metrics.signals.sem1!.bins[0].meanConfidence).toBeNaN();
    expect(r.value.models[1].questions[3].verbalized).toBe(doc.models[1].questions[3].verbalized);
  });

  test('accepts an already parsed value and a report without samples', () => {
    const doc = sampleReport({ samples: false, questions: 2 });
    const r = parseReport(JSON.parse(JSON.stringify(doc)));
    expect(r.ok && r.value.models[0].questions[1].samples).toBeUndefined();
    expect(r.ok && r.value.models[0].questions.length).toBe(2);
  });

  test('a null per-question signal means "not available": the key is dropped', () => {
    const j = json();
    j.models[0].questions[0].signals = { stated: null, logprob: 0.4 };
    const r = parseReport(j);
    expect(r.ok && r.value.models[0].questions[0].signals).toEqual({ logprob: 0.4 });
  });

  test('unknown keys are dropped, including __proto__', () => {
    const text = JSON.stringify(sampleReport()).replace('{"format"', '{"__proto__":{"polluted":1},"extra":2,"format"');
    const r = parseReport(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.keys(r.value)).not.toContain('extra');
    expect(({} as any).polluted).toBeUndefined();
    expect((r.value as any).polluted).toBeUndefined();
  });
});

describe('parseReport refuses bad files with the path of the bad field', () => {
  test('a number out of range names its path', () => {
    const j = json();
    j.models[0].questions[2].sem1 = 1.5;
    expect(refusal(j)).toBe('models[0].questions[2].sem1: expected a number in [0,1], got 1.5');
  });

  test('a string where a number belongs', () => {
    const j = json();
    j.models[1].questions[0].sem2 = '0.5';
    expect(refusal(j)).toMatch(/^models\[1\]\.questions\[0\]\.sem2: expected a number in \[0,1\]/);
  });

  test('a missing field says it is missing', () => {
    const j = json();
    delete j.models[0].questions[1].gold;
    expect(refusal(j)).toMatch(/^models\[0\]\.questions\[1\]\.gold: missing/);
    const k = json();
    delete k.models[0].metrics;
    expect(refusal(k)).toMatch(/^models\[0\]\.metrics: missing/);
  });

  test('null where a per-question number is required (NaN is not allowed there)', () => {
    const j = json();
    j.models[0].questions[0].sem1 = null;
    expect(refusal(j)).toMatch(/^models\[0\]\.questions\[0\]\.sem1: expected a number in \[0,1\]/);
  });

  test('Infinity (1e999 in the text) is refused', () => {
    const text = JSON.stringify(sampleReport()).replace('"stdMargin":', '"stdMargin":1e999,"x":');
    expect(refusal(text)).toMatch(/^models\[0\]\.questions\[0\]\.stdMargin: expected a finite number/);
    const j = json();
    j.models[0].metrics.signals.sem1.ece = Infinity; // a parsed value can carry it too
    expect(refusal(j)).toBe('models[0].metrics.signals.sem1.ece: expected a finite number, got Infinity');
  });

  test('a sample whose class index is past the class list', () => {
    const j = json();
    j.models[0].questions[0].samples[4].cls = 9;
    expect(refusal(j)).toMatch(/^models\[0\]\.questions\[0\]\.samples\[4\]\.cls: class index 9/);
  });

  test('a wrong grade or regime', () => {
    const j = json();
    j.models[0].questions[0].grade = 'MAYBE';
    expect(refusal(j)).toMatch(/grade: expected CORRECT, INCORRECT or NOT_ATTEMPTED/);
  });

  test('counts the other problems', () => {
    const j = json();
    j.models[0].questions[0].sem1 = 2;
    j.models[0].questions[1].sem1 = 2;
    j.models[0].questions[2].sem1 = 2;
    expect(refusal(j)).toMatch(/\(and 2 more problems\)$/);
  });

  test('unknown versions and other formats get their own message', () => {
    const j = json();
    // Older versions are upgraded (report-versions.test.ts); a newer one is named as newer.
    j.version = REPORT_VERSION + 1;
    expect(refusal(j)).toBe(`This report was made by a newer version of the app (report version ${REPORT_VERSION + 1}; this app reads versions 1 to ${REPORT_VERSION}): open it in an up-to-date Sem-ECE.`);
    delete j.version;
    expect(refusal(j)).toMatch(/Unsupported report version missing: this app reads versions 1 to/);
    expect(refusal({ ...json(), format: 'other' })).toMatch(/Not a Sem-ECE report/);
    expect(refusal([1, 2])).toMatch(/expected a JSON object/);
    expect(refusal('null')).toMatch(/expected a JSON object/);
  });

  test('not JSON at all', () => {
    expect(refusal('<html><script>alert(1)</script>')).toMatch(/^The file is not valid JSON/);
    expect(refusal('')).toMatch(/^The file is not valid JSON/);
  });

  test('deep nesting is refused, not a crash', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(refusal(deep)).toMatch(/not valid JSON|could not be checked|expected a JSON object/);
  });

  test('a string over the length limit', () => {
    const j = json();
    j.models[0].questions[0].question = 'x'.repeat(MAX_STRING_LENGTH + 1);
    expect(refusal(j)).toBe('models[0].questions[0].question: text longer than 100,000 characters');
  });

  test('a file over the size limit is refused before it is read', async () => {
    const big = { size: MAX_REPORT_BYTES + 1, name: 'huge.json', text: () => Promise.reject(new Error('must not read')) };
    const r = await parseReportFile(big as unknown as Blob & { name: string });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toBe('huge.json is 200.0 MB; the limit is 200.0 MB.');
  });

  test('a file under the limit is read and checked, with its name in the message', async () => {
    const good = new Blob([JSON.stringify(sampleReport())]);
    expect((await parseReportFile(good)).ok).toBe(true);
    const bad = Object.assign(new Blob(['{"format":"semece-report","version":9}']), { name: 'old.json' });
    const r = await parseReportFile(bad);
    expect(!r.ok && r.error.message).toMatch(/^old\.json: This report was made by a newer version of the app \(report version 9;/);
  });
});

/** A report made by the score stage over `count` small questions (the comparison, bandwidths and regime intervals stored with the metrics). */
function scoredReport(count: number, B: number): ReportDocument {
  const rows = Array.from({ length: count }, (_, i) => ({
    clustered: {
      id: `q${i}`, question: `Q${i}?`, gold_answer: 'a', model: 'm', n_samples: 4, results: ['', '', '', ''],
      answer_extracted: ['a', 'a', 'b', i % 2 ? 'a' : 'c'], confidence_verbalized: [0.9, null, 0.5, 0.7],
      n_clusters: 3, cluster_labels: ['a', 'b', 'c'], cluster_assignments: [0, 0, 1, i % 2 ? 0 : 2],
      cluster_sizes: [i % 2 ? 3 : 2, 1, i % 2 ? 0 : 1], modal_cluster: 0, modal_cluster_label: 'a',
    },
    graded: { id: `q${i}`, grade: i % 3 ? 'CORRECT' : 'INCORRECT', Y: (i % 3 ? 1 : 0) as 0 | 1 },
    clusteredLine: i + 1, gradedLine: i + 1,
  }));
  const model = scoreAuthorsRows({ questions: rows, excluded: [], duplicates: [], unmatchedGraded: [] }, { B, samples: 'none' }, 'm');
  return buildReport([model], { title: 't', dataset: { name: 'd' }, settings: importedSettings({ B }, 4) });
}

describe('the stored signal comparison', () => {
  const scored = () => scoredReport(60, 80);

  test('round-trips through JSON and the importer, intervals and all', () => {
    const doc = scored();
    expect(doc.models[0].metrics.comparison?.compared).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence']);
    const back = parseReport(JSON.stringify(doc));
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.models[0].metrics.comparison).toEqual(doc.models[0].metrics.comparison);
  });

  test('a report saved before the comparison was stored still imports, without one', () => {
    const doc = JSON.parse(JSON.stringify(scored()));
    delete doc.models[0].metrics.comparison;
    const back = parseReport(doc);
    expect(back.ok && back.value.models[0].metrics.comparison).toBeUndefined();
  });

  test('a damaged comparison is refused with its path', () => {
    const doc = JSON.parse(JSON.stringify(scored()));
    doc.models[0].metrics.comparison.best = 'astrology';
    expect(refusal(doc)).toMatch(/^models\[0\]\.metrics\.comparison\.best: /);
    const other = JSON.parse(JSON.stringify(scored()));
    other.models[0].metrics.comparison.rows = -1;
    expect(refusal(other)).toMatch(/^models\[0\]\.metrics\.comparison\.rows: /);
  });
});

describe('parseReportFile progress', () => {
  test('reports the bytes read up to the file size, then parsing, then validating every row', async () => {
    const text = JSON.stringify(JSON.parse(JSON.stringify(sampleReport({ questions: 500 }))));
    const file = new File([text], 'big.json');
    const seen: { phase: string; done?: number; total?: number; unit?: string }[] = [];
    const result = await parseReportFile(file, (p) => seen.push(p));
    expect(result.ok).toBe(true);
    const reading = seen.filter((p) => p.phase === 'reading');
    expect(reading[0]).toEqual({ phase: 'reading', done: 0, total: file.size, unit: 'bytes' });
    expect(reading.at(-1)!.done).toBe(file.size);
    expect(seen.map((p) => p.phase).filter((ph, i, all) => ph !== all[i - 1])).toEqual(['reading', 'parsing', 'validating']);
    expect(seen.at(-1)).toEqual({ phase: 'validating', total: 1000, unit: 'rows' });
  });

  test('the file read in parts is the same document as read at once, multi-byte characters included', async () => {
    const doc = sampleReport({ questions: 50 });
    doc.title = 'Réponses — 東京 🗼';
    const file = new File([JSON.stringify(JSON.parse(JSON.stringify(doc)))], 'utf8.json');
    expect(await parseReportFile(file, () => undefined)).toEqual(await parseReportFile(file));
  });
});

describe('smooth ECE bandwidth and regime intervals', () => {
  const scoredDoc = () => scoredReport(40, 60);

  test('round-trip through JSON and the importer', () => {
    const doc = scoredDoc();
    const m = doc.models[0].metrics;
    expect(m.signals.sem1!.smoothEceBandwidth).toBeGreaterThan(0);
    expect(Object.values(m.byRegime).some((r) => r.eceBiasCorrected?.sem1 !== undefined)).toBe(true);
    const back = parseReport(JSON.stringify(doc));
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.models[0].metrics.signals.sem1!.smoothEceBandwidth).toBe(m.signals.sem1!.smoothEceBandwidth);
    expect(back.value.models[0].metrics.byRegime).toEqual(m.byRegime);
  });

  test('a report made before they were stored still opens, without them', () => {
    const j = JSON.parse(JSON.stringify(scoredDoc()));
    for (const s of Object.values(j.models[0].metrics.signals) as any[]) delete s.smoothEceBandwidth;
    for (const r of Object.values(j.models[0].metrics.byRegime) as any[]) delete r.eceBiasCorrected;
    const back = parseReport(j);
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.models[0].metrics.signals.sem1!.smoothEceBandwidth).toBeUndefined();
    expect(back.value.models[0].metrics.byRegime.jensen.eceBiasCorrected).toBeUndefined();
  });

  test('a bandwidth or a regime interval out of range is refused with its path', () => {
    const j = JSON.parse(JSON.stringify(scoredDoc()));
    j.models[0].metrics.signals.sem1.smoothEceBandwidth = 3;
    expect(refusal(j)).toMatch(/^models\[0\]\.metrics\.signals\.sem1\.smoothEceBandwidth: /);
    const k = JSON.parse(JSON.stringify(scoredDoc()));
    const regime = Object.keys(k.models[0].metrics.byRegime).find((r) => k.models[0].metrics.byRegime[r].eceBiasCorrected?.sem1)!;
    k.models[0].metrics.byRegime[regime].eceBiasCorrected.sem1 = [0.1, 0.2];
    expect(refusal(k)).toMatch(new RegExp(`^models\\[0\\]\\.metrics\\.byRegime\\.${regime}\\.eceBiasCorrected\\.sem1`));
  });
});
