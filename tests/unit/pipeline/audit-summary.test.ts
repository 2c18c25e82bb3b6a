/**
 * auditSummary on a 40-question run and a 20-question audit with planted wrong merges and wrong
 * grades (tests/mock/audit-rows.ts): κ, raw agreement, ARI, pairwise precision/recall and the ECE
 * shift of Sem1, Sem2, verbalized and entropy confidence, each against the hand calculation below.
 */
import { describe, expect, it } from 'vitest';
import { readAuthorsRows } from '../../../src/formats/authors-rows';
import { scoreAuthorsRows } from '../../../src/pipeline/score-stage';
import { auditSummary, auditDocumentSummary } from '../../../src/pipeline/audit-summary';
import { auditCliDocument } from '../../../src/pipeline/audit-documents';
import { auditSize, drawAuditQuestions } from '../../../src/pipeline/audit-plan';
import { sem2HeldOut } from '../../../src/core/estimators';
import { equalWidthBinOf, equalWidthEdges } from '../../../src/core/binning';
import { buildReport } from '../../../src/pipeline/score-documents';
import { auditRunRows, plantedAudit } from '../../mock/audit-rows';
import type { AuditLine } from '../../../src/formats/audit-file';

function scored() {
  const { clustered, graded } = auditRunRows();
  const rows = readAuthorsRows({ text: clustered, file: 'clustered.jsonl' }, { text: graded, file: 'graded.jsonl' });
  if (!rows.ok) throw new Error(rows.error.message);
  return { rows: rows.value, report: scoreAuthorsRows(rows.value, { B: 200, samples: 'answers' }) };
}

/** Σ_b |D_b| / 40 from a map bin → D_b. */
const eceOfBins = (bins: Map<number, number>) => [...bins.values()].reduce((s, d) => s + Math.abs(d), 0) / 40;
const edges = equalWidthEdges(10);
function add(bins: Map<number, number>, conf: number, amount: number) {
  const b = equalWidthBinOf(conf, edges);
  bins.set(b, (bins.get(b) ?? 0) + amount);
}

describe('auditSummary: 20 audited of 40, planted errors', () => {
  const { report } = scored();
  const s = auditSummary(report, plantedAudit(), { scoring: { B: 200 } });

  it('counts the audit', () => {
    expect(s.questions).toBe(20);
    expect(s.skipped).toEqual([]);
    expect(s.people).toEqual(['ana']);
    expect(s.corrected.map((q) => q.id)).toEqual(Array.from({ length: 20 }, (_, k) => `q${2 * k}`));
  });

  it("gives Cohen's κ and the raw agreement of the hand calculation", () => {
    // Audited automatic grades: C 16 (A 12, B 4), I 2 (q32, q34), N 2 (q36, q38).
    // Person: q0, q6 C→I; q26 C→N; q32 I→C; q36 N→I.
    // Table (rows automatic, columns person; C, I, N): C [13, 2, 1], I [1, 1, 0], N [0, 1, 1]
    expect(s.grades.confusion).toEqual([[13, 2, 1], [1, 1, 0], [0, 1, 1]]);
    // p_o = (13 + 1 + 1)/20 = 0.75; marginals automatic (.8, .1, .1), person (.7, .2, .1)
    // p_e = .8·.7 + .1·.2 + .1·.1 = .59; κ = (.75 − .59)/(1 − .59) = .16/.41 = 0.3902…
    expect(s.grades.agreement[0]).toBeCloseTo(0.75, 12);
    expect(s.grades.kappa[0]).toBeCloseTo(0.16 / 0.41, 12);
    expect(s.grades.changed).toBe(5);
    expect(s.grades.kappa[1]).toBeLessThan(s.grades.kappa[0]);
    expect(s.grades.kappa[2]).toBeGreaterThan(s.grades.kappa[0]);
  });

  it('gives the ARI and pairwise precision/recall of the hand calculation', () => {
    // q0, q2, q4: one class vs four singletons: tp 0, fp 6, fn 0, tn 0 → ARI 2(0 − 0)/(0 + 6·6) = 0.
    // q24: {0,1,2}{3} vs {0,1}{2}{3}: (0,1) tp; (0,2), (1,2) fp; (0,3), (1,3), (2,3) tn
    //      → ARI 2(1·3 − 0·2)/((1+0)(0+3) + (1+2)(2+3)) = 6/18 = 1/3.  The other 16: ARI 1.
    // mean = (16 + 1/3)/20 = 49/60.
    expect(s.classes.ari[0]).toBeCloseTo(49 / 60, 12);
    // Pooled pairs (6 per question, 120): tp = 9·6 (A agreed) + 3·3 (B agreed) + 2·3 (C) + 2·6 (D) + 1 (q24) = 82;
    // fp = 3·6 + 2 = 20; fn = 0; tn = 120 − 102 = 18 → precision 82/102, recall 1.
    expect(s.classes.pairs).toEqual({ tp: 82, fp: 20, fn: 0, tn: 18 });
    expect(s.classes.precision[0]).toBeCloseTo(82 / 102, 12);
    expect(s.classes.recall[0]).toBe(1);
    expect(s.classes.differing).toBe(4);
  });

  it('gives the ECE shift of Sem1 and verbalized of the hand calculation (difference estimator, weight 40/20 = 2)', () => {
    // Sem1, all 40: A and D at 1.0 (bin 9): D_9 = 24·0 + 4·(0 − 1) = −4; B and C at 0.75 (bin 7):
    // D_7 = 8·0.25 + 4·(−0.75) = −1 → ECE = 5/40 = 0.125.
    // Changes δ (leave bin(c), join bin(c')): q0 1→0.25, y 1→0: +0 out of 9, −0.25 into bin 2;
    // q2, q4 1→0.25, y 1: +0.75 each into bin 2; q6 y 1→0: −1 in bin 9; q24 0.75→0.5 (sizes 2,1,1):
    // −0.25 in bin 7, +0.5 in bin 5; q26 y 1→0: −1 in bin 7; q32 y 0→1: +1 in bin 7; q36 y 0→0: none.
    // Σδ: bin 2 +1.25, bin 5 +0.5, bin 7 −0.25, bin 9 −1; ×2 and added:
    // D' = {2: 2.5, 5: 1, 7: −1.5, 9: −6} → ECE' = 11/40 = 0.275; shift 0.15.
    const sem1 = s.eceShift.sem1!;
    expect(sem1.ece).toBeCloseTo(0.125, 12);
    expect(sem1.corrected).toBeCloseTo(0.275, 12);
    expect(sem1.estimate).toBeCloseTo(0.15, 12);
    expect(sem1.interval[0]).toBeLessThanOrEqual(sem1.estimate);
    expect(sem1.interval[1]).toBeGreaterThanOrEqual(sem1.estimate);
    // Verbalized 0.7 on every question (one bin): D = 32 − 28 = 4, ECE 0.1; only y changes:
    // −1 (q0) −1 (q6) −1 (q26) +1 (q32) = −2, ×2 = −4 → D' = 0, ECE' = 0: shift −0.1.
    expect(s.eceShift.verbalized!.ece).toBeCloseTo(0.1, 12);
    expect(s.eceShift.verbalized!.estimate).toBeCloseTo(-0.1, 12);
  });

  it('gives the ECE shift of Sem2 and entropy confidence of the hand calculation', () => {
    // Sem2 of one class is 1 and of four singletons 0 (the held-out half never shares the
    // selection's class); {0,1,2}{3} and {0,1}{2}{3} take the spec's splits (R 10, seed 0): s_B, s_P.
    const sB = sem2HeldOut([0, 0, 0, 1], 2, { R: 10, seed: 0 });
    const sP = sem2HeldOut([0, 0, 1, 2], 3, { R: 10, seed: 0 });
    const before = new Map<number, number>();
    add(before, 1, -4); // D: four at 1 with y 0
    add(before, sB, 8 * (1 - sB) + 4 * (0 - sB)); // B (y 1) and C (y 0)
    const after = new Map(before);
    add(after, 0, 2 * (0 + 1 + 1)); // q0 (y 0), q2, q4 (y 1) join bin 0 at Sem2 0
    add(after, 1, 2 * -1); // q6
    add(after, sB, 2 * (-(1 - sB) - 1 + 1)); // q24 leaves, q26 y→0, q32 y→1
    add(after, sP, 2 * (1 - sP)); // q24 joins
    expect(s.eceShift.sem2!.ece).toBeCloseTo(eceOfBins(before), 12);
    expect(s.eceShift.sem2!.estimate).toBeCloseTo(eceOfBins(after) - eceOfBins(before), 12);
    // Entropy confidence exp(−H): 1 for one class, e = exp(−H(¾,¼)) for {0,1,2}{3}, ¼ for four
    // singletons, 2^−1.5 for sizes 2,1,1 (H = 1.5 ln 2).
    const e = Math.exp(0.75 * Math.log(0.75) + 0.25 * Math.log(0.25));
    // Automatic: bin 9 −4, bin(e) 8(1 − e) − 4e = 8 − 12e → ECE (4 + |8 − 12e|)/40.
    // Corrected: bin 9 −4 − 2, bin(e) 8 − 12e − 2(1 − e) = 6 − 10e, bin(2^−1.5) 2(1 − 2^−1.5), bin(¼) 2(−0.25 + 0.75 + 0.75) = 2.5.
    const ent = s.eceShift.entropyConfidence!;
    expect(ent.ece).toBeCloseTo((4 + Math.abs(8 - 12 * e)) / 40, 12);
    expect(ent.corrected).toBeCloseTo((6 + Math.abs(6 - 10 * e) + 2 * (1 - 2 ** -1.5) + 2.5) / 40, 12);
  });

  it('recomputes the audited questions, and with `recompute` the whole report with them in place', () => {
    // The audited 20 alone, Sem1: automatic bin 9 −2 (q36, q38), bin 7 4·0.25 − 2·0.75 = −0.5 → 2.5/20;
    // corrected: bin 9 −3 (q6, q36, q38), bin 2 1.25, bin 5 0.5, bin 7 −.75 + .25 + .25 + .25 − .75 = −0.75 → 5.5/20.
    expect(s.sample.ece.sem1!.automatic).toBeCloseTo(0.125, 12);
    expect(s.sample.ece.sem1!.person).toBeCloseTo(0.275, 12);
    expect(s.sample.accuracy).toEqual({ automatic: 0.8, person: 0.7 });
    const q24 = s.corrected.find((q) => q.id === 'q24')!;
    expect([q24.sem1, q24.nClasses, q24.classes!.map((c) => c.size)]).toEqual([0.5, 3, [2, 1, 1]]);
    expect(q24.samples!.map((x) => x.cls)).toEqual([0, 0, 1, 2]);
    const r = auditSummary(report, plantedAudit(), { scoring: { B: 100 }, recompute: true }).recomputed!;
    // The 40 with the 20 corrections only: bin 9 −4 −1, bin 7 −1 −0.25 −1 +1, bin 5 0.5, bin 2 1.25 → 8/40.
    expect(r.signals.sem1!.ece).toBeCloseTo(0.2, 12);
    expect(r.accuracy).toBeCloseTo(30 / 40, 12);
  });

  it('splits by regime and prints the CLI member', () => {
    const total = Object.values(s.byRegime).reduce((n, p) => n + p.questions, 0);
    expect(total).toBe(20);
    const doc = auditCliDocument(s);
    expect(doc.questions).toBe(20);
    expect(doc.kappa).toBeCloseTo(0.16 / 0.41, 12);
    expect(doc.kappa_interval).toEqual([s.grades.kappa[1], s.grades.kappa[2]]);
    expect(doc.ari).toBeCloseTo(49 / 60, 12);
    expect(doc.ece_shift.sem1).toEqual({ ece: s.eceShift.sem1!.ece, corrected: s.eceShift.sem1!.corrected, estimate: s.eceShift.sem1!.estimate, interval: s.eceShift.sem1!.interval, bias_corrected: s.eceShift.sem1!.biasCorrected });
  });

  it('splits by a slice: each value of the field its own domain', () => {
    const sliced = auditSummary(report, plantedAudit(), { scoring: { B: 100 }, sliceBy: 'category' });
    const values = sliced.bySlice!.values;
    expect(Object.fromEntries(Object.entries(values).map(([v, p]) => [v, p.questions]))).toEqual({ A: 12, B: 4, C: 2, D: 2 });
    // Slice A: 24 questions at Sem1 1 with y 1, ECE 0; 12 audited (weight 24/12 = 2): q0 −0.25,
    // q2 and q4 +0.75 each into bin 2 (×2 = 2.5), q6 −1 in bin 9 (×2 = −2) → ECE' = 4.5/24 = 0.1875.
    expect(values.A!.eceShift.sem1!.ece).toBe(0);
    expect(values.A!.eceShift.sem1!.estimate).toBeCloseTo(0.1875, 12);
    expect(auditCliDocument(sliced).slices!.A!.questions).toBe(12);
  });

  it('is seeded: the same audit gives the same intervals', () => {
    expect(auditSummary(report, plantedAudit(), { scoring: { B: 200 } }).eceShift).toEqual(s.eceShift);
  });
});

describe('auditSummary: people, skipped lines, documents', () => {
  const { report, rows } = scored();

  it("computes Krippendorff's α between two people on the questions both audited", () => {
    // ben agrees with the automatic side everywhere on the first 10 audited questions.
    const ben: AuditLine[] = plantedAudit('ben').slice(0, 10).map((l) => {
      const i = Number(l.id.slice(1));
      return { ...l, classes: i < 24 ? [[0, 1, 2, 3]] : [[0, 1, 2], [3]], grade: 'CORRECT' };
    });
    const s = auditSummary(report, [...plantedAudit(), ...ben], { scoring: { B: 200 } });
    expect(s.people).toEqual(['ana', 'ben']);
    // The reference stays ana's (the first line per question).
    expect(s.grades.kappa[0]).toBeCloseTo(0.16 / 0.41, 12);
    const between = s.betweenPeople!;
    expect(between.questions).toBe(10);
    // Grades over q0…q18 even: ana C except q0, q6 (I); ben C throughout. Units (C,C)×8, (I,C)×2:
    // o_CC = 16, o_CI = o_IC = 2 → n_C = 18, n_I = 2, n = 20: α = 1 − 19·4/(2·18·2) = 1 − 76/72 = −1/18.
    expect(between.grades[0]).toBeCloseTo(1 - 76 / 72, 12);
    // Pairs of q0, q2, q4 (6 each): ana different, ben same → 18 units (0,1); the other 7 questions: 42 units (1,1).
    // o_11 = 84, o_01 = o_10 = 18 → n_1 = 102, n_0 = 18, n = 120: α = 1 − 119·36/(2·102·18) = 1 − 4284/3672.
    expect(between.classes[0]).toBeCloseTo(1 - 4284 / 3672, 12);
  });

  it('lists lines it cannot use: an unknown id, another number of answers, no classes per answer', () => {
    const lines: AuditLine[] = [
      { id: 'q99', classes: [[0, 1, 2, 3]], grade: 'CORRECT', by: 'ana', at: '2026-12-06T10:00:00Z' },
      { id: 'q1', classes: [[0, 1, 2]], grade: 'CORRECT', by: 'ana', at: '2026-12-06T10:00:00Z' },
      ...plantedAudit().slice(0, 3),
    ];
    const bare = { ...report, questions: report.questions.map(({ samples: _, ...q }) => q) };
    const s = auditSummary(bare, lines, { scoring: { B: 50 }, assignmentsOf: (q) => (q.id === 'q4' ? undefined : rows.questions.find((r) => r.clustered.id === q.id)!.clustered.cluster_assignments) });
    expect(s.questions).toBe(2);
    expect(s.skipped.map((x) => x.id)).toEqual(['q99', 'q1', 'q4']);
    expect(s.skipped[1]!.reason).toMatch(/partitions 3 answers but the question has 4/);
  });

  it('summarises a report document per model with its clusterer and grader', () => {
    const doc = buildReport([report], { title: 't', dataset: { name: 'd' }, settings: { samples: 4, bins: 10, sem2: { R: 10, seed: 0, selection: 'half' }, bootstrap: { B: 100, seed: 7 }, clustering: { method: 'exact' }, grading: { method: 'alias' } }, createdAt: '2026-12-06T10:00:00Z' });
    const d = auditDocumentSummary(doc, [...plantedAudit(), { ...plantedAudit()[1]!, model: 'another' }]);
    expect(d.clustering.method).toBe('exact');
    expect(d.models).toHaveLength(1);
    expect(d.models[0]!.eceShift.sem1!.estimate).toBeCloseTo(0.15, 12);
    expect(d.skipped).toEqual([{ id: 'q2', model: 'another', reason: 'the report has no such model' }]);
  });
});

describe('the audit plan', () => {
  const { report } = scored();
  it('sizes the audit from the report’s grades and draws a seeded sample, stratified when asked', () => {
    const size = auditSize(report.questions, { halfWidth: 0.1 });
    expect(size.gradeCounts).toEqual([32, 4, 4]);
    // p_e = .8² + .1² + .1² = 0.66; κ: n₀ = 1.96²·0.09/(0.34²·0.01) = 0.3457/0.001156 = 299.1;
    // N = 40 → 299.1/(1 + 298.1/40) = 35.4 → 36 (nearly all: κ at ±0.1 needs many questions)
    expect(size.chanceAgreement).toBeCloseTo(0.66, 12);
    expect(size.kappa).toBe(36);
    // Raw agreement at 0.9: n₀ = 1.96²·0.09/0.01 = 34.6 → 34.6/(1 + 33.6/40) = 18.8 → 19
    expect(size.agreement).toBe(19);
    const a = drawAuditQuestions(report.questions, 10, 5);
    expect(a.ids).toHaveLength(10);
    expect(drawAuditQuestions(report.questions, 10, 5)).toEqual(a);
    const byRegime = drawAuditQuestions(report.questions, 10, 5, { by: 'regime' });
    const regimes = new Map(report.questions.map((q) => [q.id, q.regime]));
    const counts = new Map<string, number>();
    for (const id of byRegime.ids) counts.set(regimes.get(id)!, (counts.get(regimes.get(id)!) ?? 0) + 1);
    const sizes = new Map<string, number>();
    for (const q of report.questions) sizes.set(q.regime, (sizes.get(q.regime) ?? 0) + 1);
    // Proportional quotas: each regime's share of 10 within one question.
    for (const [r, n] of sizes) expect(Math.abs((counts.get(r) ?? 0) - (10 * n) / 40)).toBeLessThan(1);
    expect(drawAuditQuestions(report.questions, 50, 5).ids).toHaveLength(40);
  });
});
