import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eceEqualWidth } from '../../../src/core/calibration';
import { readAuthorsRows, type AuthorsRows } from '../../../src/formats/authors-rows';
import { PAPER_SIGNALS, scoreAuthorsRows, modelMetrics } from '../../../src/pipeline/score-stage';
import { REPORT_VERSION } from '../../../src/model/report';
import { parseReport } from '../../../src/formats/report-import';
import { reportToJson } from '../../../src/formats/report-export';
import { buildReport, importedSettings, scoreCliDocument } from '../../../src/pipeline/score-documents';
import { eceInference } from '../../../src/core/ece-inference';
import { eceIntervalOf } from '../../../src/formats/headline-table';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/reference-sample/${name}`, import.meta.url), 'utf8');

function referenceRows(): AuthorsRows {
  const r = readAuthorsRows(
    { text: fixture('clustered.jsonl'), file: 'clustered.jsonl' },
    { text: fixture('graded.jsonl'), file: 'graded.jsonl' },
  );
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('score stage on the reference sample (expected.json)', () => {
  const rows = referenceRows();
  // As `semece score` scores for its printed document: the paper's three signals.
  const report = scoreAuthorsRows(rows, { samples: 'none', signals: PAPER_SIGNALS });
  const doc = scoreCliDocument(report, rows);
  const expected = JSON.parse(fixture('expected.json'));

  it('reproduces every per-question value bit for bit', () => {
    expect(doc.questions).toHaveLength(expected.questions.length);
    doc.questions.forEach((q, i) => {
      const e = expected.questions[i];
      expect({ id: q.id, n: q.n, sem1: q.sem1, sem2: q.sem2, verbalized: q.verbalized, correct: q.correct, margin: q.margin }).toEqual(e);
    });
  });

  it('reproduces the counts, accuracy and the three ECEs bit for bit', () => {
    expect(doc.metrics.questions).toBe(expected.metrics.questions);
    expect(doc.metrics.accuracy).toBe(expected.metrics.accuracy);
    expect(doc.metrics.ece.sem1).toBe(expected.metrics.ece.sem1);
    expect(doc.metrics.ece.sem2).toBe(expected.metrics.ece.sem2);
    expect(doc.metrics.ece.verbalized).toBe(expected.metrics.ece.verbalized);
    expect(doc.metrics.excluded).toBe(2);
  });

  it('reproduces the bootstrap triples within 1e-9', () => {
    const b = expected.metrics.bootstrap;
    expect(doc.metrics.bootstrap.n_lo).toBe(b.n_lo);
    for (const key of ['d_conf', 'd_ece', 'd_ece_lo'] as const) {
      doc.metrics.bootstrap[key].forEach((v, i) => expect(Math.abs(v - b[key][i])).toBeLessThanOrEqual(1e-9));
    }
  });

  it('fills every signal, the ECE intervals and the regimes', () => {
    const m = report.metrics;
    expect(Object.keys(m.signals).sort()).toEqual(['sem1', 'sem2', 'verbalized']);
    for (const s of ['sem1', 'sem2', 'verbalized'] as const) {
      const iv = m.eceIntervals[s]!;
      expect(iv[0]).toBe(m.signals[s]!.ece);
      expect(iv[1]).toBeLessThanOrEqual(iv[0]);
      expect(iv[2]).toBeGreaterThanOrEqual(iv[0]);
    }
    const counts = Object.values(m.byRegime).map((r) => r.count);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(118);
    const jensen = report.questions.filter((q) => q.regime === 'jensen');
    expect(m.byRegime.jensen.ece.sem1).toBe(eceEqualWidth(jensen.map((q) => q.sem1), jensen.map((q) => q.correct)));
    expect(m.meanClasses).toBeGreaterThan(1);
  });

  it('prints the one interval the report shows beside each ECE (ece_interval) and the calibration test (calibration_p), overall and per regime', () => {
    const m = report.metrics;
    expect(doc.metrics.ece_interval_method).toBe('consistency-inversion');
    expect(m.eceInferenceMethod).toBe('consistency-inversion');
    for (const s of PAPER_SIGNALS) {
      const want = eceInference(
        report.questions.map((q) => q[s]),
        report.questions.map((q) => q.correct),
        { bins: 10, seed: 7 },
      );
      // The plug-in ECE shown beside it is the paper's, bit for bit.
      expect(want.ece).toBe(expected.metrics.ece[s]);
      expect(doc.metrics.ece_interval[s]).toEqual(want.interval);
      expect(doc.metrics.calibration_p[s]).toBe(want.p);
      // The same numbers the report's views read (eceIntervalOf).
      expect(eceIntervalOf(m, s)).toEqual(want.interval);
      expect(want.p).toBeGreaterThan(0);
      expect(want.p).toBeLessThanOrEqual(1);
      expect(want.interval[0]).toBeLessThanOrEqual(want.interval[1]);
    }
    expect(Object.keys(doc.metrics.ece_interval)).toEqual([...PAPER_SIGNALS]);
    for (const [regime, r] of Object.entries(doc.metrics.by_regime)) {
      const rows = report.questions.filter((q) => q.regime === regime);
      if (rows.length === 0) continue;
      const want = eceInference(rows.map((q) => q.sem2), rows.map((q) => q.correct), { bins: 10, seed: 7 });
      expect(r.ece_interval.sem2).toEqual(want.interval);
      expect(r.calibration_p.sem2).toBe(want.p);
    }
  });

  it("prints the bootstrap bias-corrected ECE under its true name (ece_debiased: its old name, the same values) overall (per regime when asked), and smooth ECE's bandwidth, as the report holds them", () => {
    const m = report.metrics;
    expect(doc.metrics.ece_debiased).toEqual(doc.metrics.ece_bias_corrected);
    for (const s of PAPER_SIGNALS) {
      const d = doc.metrics.ece_bias_corrected[s]!;
      expect(d).toEqual(m.eceBiasCorrected![s]);
      // The basic interval contains its estimate (widened if it would not).
      expect(d[1]).toBeLessThanOrEqual(d[0]);
      expect(d[2]).toBeGreaterThanOrEqual(d[0]);
      expect(doc.metrics.smooth_ece_bandwidth[s]).toBe(m.signals[s]!.smoothEceBandwidth);
      expect(doc.metrics.smooth_ece_bandwidth[s]).toBeGreaterThan(0);
    }
    for (const r of Object.values(doc.metrics.by_regime)) expect(r).not.toHaveProperty('ece_bias_corrected');
    const withRegimes = scoreCliDocument(report, rows, {}, { regimeIntervals: true });
    for (const [regime, r] of Object.entries(withRegimes.metrics.by_regime)) {
      const want = m.byRegime[regime as keyof typeof m.byRegime].eceBiasCorrected ?? {};
      expect(r.ece_bias_corrected).toEqual(Object.fromEntries(PAPER_SIGNALS.filter((s) => want[s]).map((s) => [s, want[s]])));
      expect(r.ece_debiased).toEqual(r.ece_bias_corrected);
      if (r.count > 0) expect(Object.keys(r.ece_bias_corrected ?? {})).toEqual([...PAPER_SIGNALS]);
    }
  });

  it('by default scores every signal in the same pass: entropy confidence and the black-box signals beside the paper three, bit-equal to them', () => {
    const all = scoreAuthorsRows(rows, { samples: 'none' });
    // The rows carry answers, so lexical similarity is among them; samples 'none' only shapes the report.
    expect(Object.keys(all.metrics.signals)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence', 'semantic_entropy', 'num_sets', 'eigv', 'degree', 'eccentricity', 'lexical_similarity']);
    for (const s of PAPER_SIGNALS) {
      expect(all.metrics.signals[s]).toEqual(report.metrics.signals[s]);
      expect(all.metrics.eceIntervals[s]).toEqual(report.metrics.eceIntervals[s]);
    }
    expect(all.metrics.bootstrap).toEqual(report.metrics.bootstrap);
    // The confidence forms are no probabilities: left out of the comparison, with why.
    expect(all.metrics.comparison!.compared).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence']);
    expect(all.metrics.comparison!.excluded.map((x) => x.signal)).toEqual(['semantic_entropy', 'num_sets', 'eigv', 'degree', 'eccentricity', 'lexical_similarity']);
  });

  it('lists excluded questions with reasons, duplicates and settings', () => {
    expect(doc.excluded.map((x) => x.id)).toEqual(['q11_00005', 'q11_00028']);
    expect(doc.duplicates).toHaveLength(2);
    expect(doc.settings).toEqual({ R: 10, sem2_seed: 0, bins: 10, B: 1000, bootstrap_seed: 7 });
    expect(report.model).toBe('fixture');
  });
});

describe('options', () => {
  const rows = referenceRows();

  it('R and the Sem2 seed change Sem2 only', () => {
    const base = scoreAuthorsRows(rows, { samples: 'none', B: 60 });
    const other = scoreAuthorsRows(rows, { samples: 'none', B: 60, R: 3, sem2Seed: 5 });
    expect(other.questions.map((q) => q.sem1)).toEqual(base.questions.map((q) => q.sem1));
    expect(other.questions.map((q) => q.sem2)).not.toEqual(base.questions.map((q) => q.sem2));
  });

  it('bins and B reach the metrics', () => {
    const r = scoreAuthorsRows(rows, { samples: 'none', bins: 5, B: 60, bootstrapSeed: 3 });
    expect(r.metrics.signals.sem1!.bins).toHaveLength(5);
    expect(r.metrics.bootstrap.B).toBe(60);
    expect(r.metrics.bootstrap.seed).toBe(3);
  });

  it('keeps answers (and raw replies on request) per sample', () => {
    const answers = scoreAuthorsRows(rows, { B: 60 });
    const q = answers.questions[0];
    expect(q.samples).toHaveLength(q.n);
    expect(q.samples![0].raw).toBeUndefined();
    expect(q.classes!.reduce((s, c) => s + c.size, 0)).toBe(q.n);
    const raw = scoreAuthorsRows(rows, { B: 60, samples: 'raw' });
    expect(typeof raw.questions[0].samples![0].raw).toBe('string');
  });
});

describe('modelMetrics, buildReport and pooled ECE', () => {
  const rows = referenceRows();
  const a = scoreAuthorsRows(rows, { samples: 'none', B: 60 });

  it('empty rows give NaN metrics without throwing', () => {
    const m = modelMetrics([], { excluded: 3 });
    expect(m.questions).toBe(0);
    expect(m.excluded).toBe(3);
    expect(m.accuracy).toBeNaN();
    expect(m.signals.sem1!.ece).toBeNaN();
    expect(m.bootstrap.d_conf.every(Number.isNaN)).toBe(true);
    expect(m.byRegime.jensen.count).toBe(0);
  });

  it('buildReport wraps models in a versioned document', () => {
    const doc = buildReport([a], { title: 't', dataset: { name: 'sample' }, settings: importedSettings({ B: 60 }) });
    expect(doc.format).toBe('semece-report');
    expect(doc.version).toBe(REPORT_VERSION);
    expect(doc.dataset.questions).toBe(120);
    expect(doc.settings.bootstrap).toEqual({ B: 60, seed: 7 });
    expect(doc.models[0]).toBe(a);
  });

  it('the document survives export and the importer (NaN → null → NaN)', () => {
    const withAnswers = scoreAuthorsRows(rows, { B: 60 });
    const doc = buildReport([withAnswers], { title: 't', dataset: { name: 'sample' }, settings: importedSettings({ B: 60 }) });
    const back = parseReport(reportToJson(doc));
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.models[0].metrics.signals.sem1!.ece).toBe(withAnswers.metrics.signals.sem1!.ece);
    expect(back.value.models[0].questions).toHaveLength(118);
  });
});
