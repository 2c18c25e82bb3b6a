/**
 * Calibration by subgroup (pipeline/slices.ts): each slice's numbers are the report's computed on
 * that slice's questions alone, slices under MIN_SLICE_QUESTIONS are marked, numeric columns with
 * many values are binned on a log10 scale, and a column nobody has is refused by name.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { readAuthorsRows } from '../../../src/formats/authors-rows';
import { scoreAuthorsRows, modelMetrics } from '../../../src/pipeline/score-stage';
import { MIN_SLICE_QUESTIONS, sliceLabels, sliceReport } from '../../../src/pipeline/slices';
import { PAPER_SIGNALS } from '../../../src/model/signals';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = (name: string) => readFileSync(`${root}tests/fixtures/reference-sample/${name}`, 'utf8');

/** The reference sample with a category per row (three unequal slices) and a popularity number. */
function categorised() {
  const lines = fixture('clustered.jsonl').trim().split('\n').map((l, i) => JSON.stringify({ ...JSON.parse(l), category: i % 5 === 0 ? 'rare' : i % 2 ? 'odd' : 'even', s_pop: 3 * 10 ** (i % 5) }));
  const rows = readAuthorsRows({ text: lines.join('\n'), file: 'c.jsonl' }, { text: fixture('graded.jsonl'), file: 'g.jsonl' });
  if (!rows.ok) throw new Error(rows.error.message);
  return scoreAuthorsRows(rows.value, { B: 20 });
}

test('per-slice accuracy, ECE, interval and calibration p equal the report computed on that slice alone', () => {
  const report = categorised();
  const a = sliceReport(report.questions, 'category', PAPER_SIGNALS, { bins: 10, seed: 7, draws: 99 });
  expect(a.slices.map((s) => s.value).sort()).toEqual(['even', 'odd', 'rare']);
  expect(a.slices.reduce((n, s) => n + s.questions, 0)).toBe(report.questions.length);
  for (const s of a.slices) {
    const subset = report.questions.filter((q) => q.fields?.category === s.value);
    const m = modelMetrics(subset, { excluded: 0, signals: PAPER_SIGNALS }, { B: 20, bootstrapSeed: 7, regimeIntervals: false });
    expect(s.questions).toBe(subset.length);
    expect(s.accuracy).toBe(m.accuracy);
    for (const sig of PAPER_SIGNALS) {
      expect(s.ece[sig]).toBe(m.signals[sig]!.ece);
      expect(s.eceInterval[sig]).toEqual(m.eceInference![sig]!.interval);
      expect(s.calibrationP[sig]).toBe(m.eceInference![sig]!.p);
      expect(s.calibrationPHolm[sig]).toBeGreaterThanOrEqual(s.calibrationP[sig]!);
    }
    expect(s.small).toBe(subset.length < MIN_SLICE_QUESTIONS);
  }
  // The rare slice (every fifth row, 24 of 118) is under the rule; the others are not.
  expect(a.slices.find((s) => s.value === 'rare')!.small).toBe(true);
  expect(a.slices.find((s) => s.value === 'odd')!.small).toBe(false);
  for (const sig of PAPER_SIGNALS) expect(a.heterogeneity[sig]!.p).toBeGreaterThan(0);
});

test('a number with many values is binned by decade on a log10 scale, in order', () => {
  const qs = [0, 1, 5, 12, 99, 100, 2500, 7, 8, 9, 11, 13, 14, 15].map((v) => ({ fields: { s_pop: v } }));
  const { labels, binning, order } = sliceLabels(qs, 's_pop');
  expect(binning).toBe('log10');
  expect(order).toEqual(['0', '1–10', '10–100', '100–1000', '1000–10000']);
  expect(labels.slice(0, 7)).toEqual(['0', '1–10', '1–10', '10–100', '10–100', '100–1000', '1000–10000']);
});

test('a column no question has is refused by name', () => {
  const report = categorised();
  expect(() => sliceReport(report.questions, 'subject', PAPER_SIGNALS, { bins: 10, seed: 7 })).toThrow(/"subject"/);
});

test("a hub catalogue dataset's slice columns are kept with its questions and travel into a run's report fields", async () => {
  const { applyColumnMapping } = await import('../../../src/formats/datasets');
  const { catalogueEntry, keptSliceColumns, hubSourceName } = await import('../../../src/hub/catalogue');
  const { questionFieldsById } = await import('../../../src/model/question-fields');
  const popqa = catalogueEntry('popqa')!;
  expect(popqa.slices?.find((s) => s.column === 's_pop')?.binning).toBe('log10');
  const keep = keptSliceColumns(hubSourceName(popqa.source));
  expect(keep).toEqual(['s_pop']);
  const table = {
    format: 'jsonl' as const,
    columns: ['id', 'question', 'possible_answers', 'prop', 's_pop'],
    rows: [
      { row: 1, where: 'line 1', record: { id: '1', question: 'Who?', possible_answers: '["A"]', prop: 'occupation', s_pop: 1234 } },
      { row: 2, where: 'line 2', record: { id: '2', question: 'Where?', possible_answers: '["B"]', prop: 'country', s_pop: 'x'.repeat(200) } },
    ],
  };
  const read = applyColumnMapping(table as never, popqa.mapping, 'popqa', keep);
  if (!read.ok) throw new Error(read.error.message);
  const [a, b] = read.value.dataset.questions;
  expect(a.fields).toEqual({ s_pop: 1234 });
  // A value too long to be a slice label is not kept.
  expect(b.fields).toBeUndefined();
  expect(questionFieldsById(read.value.dataset.questions)).toEqual({ '1': { category: 'occupation', s_pop: 1234 }, '2': { category: 'country' } });
});
