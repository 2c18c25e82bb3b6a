import { describe, expect, test } from 'vitest';
import { clusteringAgreement, summarizeAgreement } from '../../../../src/clustering/agreement';
import { agreementWithFile } from '../../../../src/pipeline/report-agreement';
import { reportClusterings } from '../../../../src/pipeline/report-clusterings';
import { sortAgreement } from '../../../../src/ui/report/agreement-data';
import { demoDocument } from '../../../e2e/report-fixture';
import { demoClusteredText, reclusteredExact } from './agreement-fixture';

const doc = demoDocument();
const model = doc.models[0];

describe('agreement of a report clustering with a clustered file', () => {
  test('the file the report was scored from agrees perfectly on every question', () => {
    const r = agreementWithFile(model, demoClusteredText(), 'same.jsonl');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.questions).toHaveLength(model.questions.length);
    expect(r.value.skipped).toEqual([]);
    expect(r.value.summary).toMatchObject({ questions: model.questions.length, meanRandIndex: 1, meanAdjustedRandIndex: 1, sameModalShare: 1 });
  });

  test('an exact-match reclustering gives, per question, the agreement of the two assignment vectors', () => {
    const text = reclusteredExact();
    const r = agreementWithFile(model, text, 'exact.jsonl');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const file = new Map(text.split('\n').map((l) => JSON.parse(l)).map((row) => [row.id, row.cluster_assignments as number[]]));
    for (const q of r.value.questions) {
      const own = model.questions.find((x) => x.id === q.id)!.samples!.map((s) => s.cls);
      expect(q).toEqual({ id: q.id, ...clusteringAgreement(own, file.get(q.id)!) });
    }
    expect(r.value.summary).toEqual(summarizeAgreement(r.value.questions.map(({ id: _id, ...a }) => a)));
    // Exact match splits spellings the demo clustering merged: some questions disagree.
    expect(r.value.summary.meanAdjustedRandIndex).toBeLessThan(1);
    expect(r.value.questions.some((q) => q.adjustedRandIndex < 1)).toBe(true);
    expect(r.value.fileQuestions).toBe(model.questions.length);
  });

  test('questions that cannot be compared are listed with their reason, never dropped silently', () => {
    const rows = reclusteredExact().split('\n').map((l) => JSON.parse(l));
    rows[1].answer_extracted[3] = 'Somewhere else';
    rows.splice(2, 1);
    rows.push({ ...rows[0], id: 'extra-question' });
    const removed = model.questions[2].id;
    const trimmed = { ...model, questions: model.questions.map((q, i) => (i === 3 ? { ...q, samples: undefined } : q)) };
    const r = agreementWithFile(trimmed, rows.map((x) => JSON.stringify(x)).join('\n'), 'other.jsonl');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const reasons = Object.fromEntries(r.value.skipped.map((x) => [x.id, x.reason]));
    expect(reasons[model.questions[1].id]).toMatch(/not the same samples: sample 4 is .* and "Somewhere else" in the file/);
    expect(reasons[removed]).toBe('not in other.jsonl');
    expect(reasons['extra-question']).toBe('not in this report');
    expect(reasons[model.questions[3].id]).toBe('this report does not keep the samples of this question');
    expect(r.value.questions).toHaveLength(model.questions.length - 3);
  });

  test('a broken or unrelated file is a clear error naming the file', () => {
    const broken = agreementWithFile(model, '{"id": "x"', 'broken.jsonl');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error.message).toMatch(/broken\.jsonl, line 1: bad JSON/);
    const unrelated = reclusteredExact().split('\n').map((l) => JSON.stringify({ ...JSON.parse(l), id: `other-${JSON.parse(l).id}` })).join('\n');
    const none = agreementWithFile(model, unrelated, 'unrelated.jsonl');
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.error.message).toMatch(/unrelated\.jsonl: no question of the file could be compared/);
  });

  test('reportClusterings reads the class of every sample; sortAgreement orders by a column with ties in file order', () => {
    const own = reportClusterings(model);
    expect(own.rows[0].cluster_assignments).toEqual(model.questions[0].samples!.map((s) => s.cls));
    const r = agreementWithFile(model, reclusteredExact(), 'exact.jsonl');
    if (!r.ok) throw new Error(r.error.message);
    const byAri = sortAgreement(r.value.questions, { key: 'adjustedRandIndex' });
    expect(byAri.map((q) => q.adjustedRandIndex)).toEqual(r.value.questions.map((q) => q.adjustedRandIndex).sort((a, b) => a - b));
    const bySame = sortAgreement(r.value.questions, { key: 'sameModalClass', descending: true });
    expect(bySame.findIndex((q) => !q.sameModalClass)).toBeGreaterThanOrEqual(bySame.filter((q) => q.sameModalClass).length);
    expect(sortAgreement(r.value.questions, { key: 'id', descending: true })[0].id).toBe([...r.value.questions.map((q) => q.id)].sort().reverse()[0]);
  });
});
