/**
 * Scoring adaptively sampled rows (issue 27): a row with `selection_samples` has Sem2 =
 * adaptiveSem2 over its assignments (one split: the selection block, then the held-out block),
 * a fixed-n row keeps the reference Sem2; the report keeps each question's selection block and
 * the run's rule, the schema checks both, and the row readers refuse a block that leaves no
 * held-out sample and keep the field out of the dataset columns.
 */
import { describe, expect, it } from 'vitest';
import { parseClusteredJsonl, readAuthorsRows } from '../../../src/formats/authors-rows';
import { scoreAuthorsRows } from '../../../src/pipeline/score-stage';
import { adaptiveModalClass, adaptiveSem2 } from '../../../src/core/adaptive-sem2';
import { sem2HeldOut } from '../../../src/core/estimators';
import { buildReport, importedSettings } from '../../../src/pipeline/score-documents';
import { parseReport } from '../../../src/formats/report-import';
import { reportToJson } from '../../../src/formats/report-export';
import { DEFAULT_ADAPTIVE_RULE } from '../../../src/core/adaptive-rule';
import { adaptiveRoundsOf } from '../../../src/pipeline/adaptive-slots';
import { readSampledRow } from '../../../src/clustering/cluster-rows';

/** A clustered row of these class assignments (labels L0, L1 …), its answers the labels. */
function clustered(id: string, assignments: number[], extra: Record<string, unknown> = {}) {
  const K = Math.max(...assignments) + 1;
  const sizes = Array.from({ length: K }, (_, k) => assignments.filter((a) => a === k).length);
  let modal = 0;
  for (let k = 1; k < K; k++) if (sizes[k] > sizes[modal]) modal = k;
  // An adaptive row's deployed (graded) answer is its selection block's most common class.
  if (typeof extra.selection_samples === 'number') modal = adaptiveModalClass(assignments, extra.selection_samples);
  const labels = sizes.map((_, k) => `L${k}`);
  return {
    id, question: `Question ${id}?`, gold_answer: 'L0', model: 'm', n_samples: assignments.length,
    results: assignments.map((a) => `Answer: L${a}`), answer_extracted: assignments.map((a) => labels[a]),
    confidence_verbalized: assignments.map(() => 0.8),
    n_clusters: K, cluster_labels: labels, cluster_assignments: assignments, cluster_sizes: sizes, modal_cluster: modal, modal_cluster_label: labels[modal],
    ...extra,
  };
}
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

const ADAPTIVE_A = [0, 0, 1, 0, 1, 1, 0, 0, 1, 1];
// The selection block's modal class (1) is not the whole row's (0): the one split decides.
const ADAPTIVE_B = [1, 1, 0, 0, 0, 0, 0, 1];
// A tie in the selection block: the lowest class index wins.
const ADAPTIVE_TIE = [0, 1, 1, 1, 0, 1];
const FIXED = [0, 0, 0, 1, 1, 0, 0, 1];

function scored() {
  const rows = [
    clustered('a', ADAPTIVE_A, { selection_samples: 3 }),
    clustered('b', ADAPTIVE_B, { selection_samples: 2 }),
    clustered('t', ADAPTIVE_TIE, { selection_samples: 2 }),
    clustered('f', FIXED),
  ];
  const graded = rows.map((r, i) => ({ id: r.id, grade: i % 2 ? 'INCORRECT' : 'CORRECT', Y: i % 2 ? 0 : 1 }));
  const read = readAuthorsRows({ text: jsonl(rows), file: 'c.jsonl' }, { text: jsonl(graded), file: 'g.jsonl' });
  if (!read.ok) throw new Error(read.error.message);
  return { read: read.value, report: scoreAuthorsRows(read.value, { B: 20, samples: 'answers' }) };
}

describe('scoring adaptive rows', () => {
  it('an adaptive row names its selection block’s most common class as modal (the graded answer); the reader refuses the largest class overall in its place', () => {
    // ADAPTIVE_B: the selection block [1, 1] picks class 1, the row's largest class is 0.
    const row = clustered('b', ADAPTIVE_B, { selection_samples: 2 });
    expect([row.modal_cluster, row.modal_cluster_label]).toEqual([1, 'L1']);
    expect(parseClusteredJsonl(jsonl([row]), 'c.jsonl').ok).toBe(true);
    const wrong = parseClusteredJsonl(jsonl([{ ...row, modal_cluster: 0, modal_cluster_label: 'L0' }]), 'c.jsonl');
    expect(!wrong.ok && wrong.error.message).toBe('c.jsonl, line 1: "modal_cluster" = 0 but the most common class of the 2 selection samples is 1');
    // Without selection_samples the same row must name the largest class, as the spec says.
    const fixed = parseClusteredJsonl(jsonl([{ ...row, selection_samples: undefined }]), 'c.jsonl');
    expect(!fixed.ok && fixed.error.message).toContain('"modal_cluster" = 1 but the first largest class is 0');
  });

  it('Sem2 of a row with selection_samples is adaptiveSem2; a fixed-n row keeps the reference Sem2', () => {
    const { read, report } = scored();
    const byId = new Map(report.questions.map((q) => [q.id, q]));
    expect(byId.get('a')!.sem2).toBe(adaptiveSem2(ADAPTIVE_A, 3));
    expect(byId.get('a')!.sem2).toBeCloseTo(3 / 7, 15);
    expect(byId.get('b')!.sem2).toBe(adaptiveSem2(ADAPTIVE_B, 2));
    expect(byId.get('b')!.sem2).toBeCloseTo(1 / 6, 15);
    expect(byId.get('t')!.sem2).toBeCloseTo(1 / 4, 15);
    expect(byId.get('f')!.sem2).toBe(sem2HeldOut(FIXED, 2));
    expect(byId.get('a')!.selectionSamples).toBe(3);
    expect(byId.get('f')!.selectionSamples).toBeUndefined();
    // Not a dataset column: nothing to slice by.
    for (const q of read.questions) expect(q.fields?.selection_samples).toBeUndefined();
    expect(report.metrics.signals.sem2!.ece).toBeGreaterThanOrEqual(0);
  });

  it('the report keeps the rule and each question’s block through the JSON round trip', () => {
    const { report } = scored();
    const adaptive = { ...DEFAULT_ADAPTIVE_RULE };
    const doc = buildReport([report], { title: 't', dataset: { name: 'd' }, settings: { ...importedSettings({ B: 20 }, 10), adaptive } });
    const back = parseReport(reportToJson(doc));
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.settings.adaptive).toEqual(adaptive);
    expect(back.value.models[0].questions.map((q) => q.selectionSamples)).toEqual([3, 2, 2, undefined]);
    // A rule's optional setting is kept too.
    const withOptional = buildReport([report], { title: 't', dataset: { name: 'd' }, settings: { ...importedSettings({ B: 20 }, 10), adaptive: { ...adaptive, unsettledHeldOut: 4 } } });
    const again = parseReport(reportToJson(withOptional));
    expect(again.ok && again.value.settings.adaptive).toEqual({ ...adaptive, unsettledHeldOut: 4 });
  });

  it('the schema refuses a block that leaves no held-out sample and a rule that does not fit the maximum', () => {
    const { report } = scored();
    const bad = structuredClone(report);
    bad.questions[0].selectionSamples = bad.questions[0].n;
    const doc = buildReport([bad], { title: 't', dataset: { name: 'd' }, settings: importedSettings({ B: 20 }, 10) });
    const r = parseReport(reportToJson(doc));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(`${r.error.where} ${r.error.message}`).toMatch(/selectionSamples.*leaves no held-out sample/);
    const rule = buildReport([report], { title: 't', dataset: { name: 'd' }, settings: { ...importedSettings({ B: 20 }, 5), adaptive: { ...DEFAULT_ADAPTIVE_RULE, firstRound: 5 } } });
    const r2 = parseReport(reportToJson(rule));
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(`${r2.error.where} ${r2.error.message}`).toMatch(/adaptive.*first round \(5\) must be smaller/);
  });

  it('the row readers refuse a selection block of n or more, in words', () => {
    const r = parseClusteredJsonl(jsonl([clustered('a', ADAPTIVE_A, { selection_samples: 10 })]), 'c.jsonl');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(`${r.error.where} ${r.error.message}`).toMatch(/c\.jsonl.*line 1.*"selection_samples" = 10 leaves no held-out sample of n_samples = 10/);
    expect(() => readSampledRow(clustered('a', ADAPTIVE_A, { selection_samples: 0 }))).toThrow(/"selection_samples" must be at least 1/);
    expect(readSampledRow(clustered('a', ADAPTIVE_A, { selection_samples: 3 })).selection_samples).toBe(3);
  });

  it('a question’s rounds replay from its answers and the report’s rule', () => {
    const settings = { samples: 30, adaptive: { ...DEFAULT_ADAPTIVE_RULE, firstRound: 5, maxSelection: 5, settledHeldOut: 10 } };
    const agreeing = Array.from({ length: 15 }, () => 'Paris');
    expect(adaptiveRoundsOf(agreeing, settings)).toEqual([
      { phase: 'selection', start: 0, size: 5 },
      { phase: 'held-out', start: 5, size: 10 },
    ]);
    expect(adaptiveRoundsOf(agreeing, { samples: 30 })).toBeUndefined();
    // Too few answers to finish the rule: no rounds to show.
    expect(adaptiveRoundsOf(agreeing.slice(0, 7), settings)).toBeUndefined();
  });
});
