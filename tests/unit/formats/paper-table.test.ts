import { expect, test } from 'vitest';
import { DEFAULT_PAPER_COLUMNS, paperCaption, paperLatex, paperMarkdown, paperTable } from '../../../src/formats/paper-table';
import { fmt, pct } from '../../../src/formats/numbers';
import { PAPER_SIGNALS, SIGNAL_LABEL } from '../../../src/model/signals';
import { demoDocument } from '../../e2e/report-fixture';

const doc = demoDocument();
const paper = { layout: 'signals' as const, signals: [...PAPER_SIGNALS], columns: DEFAULT_PAPER_COLUMNS };

test('signals × metrics: a row per model and signal, a column per chosen metric, one interval in each ECE cell', () => {
  const t = paperTable(doc.models, paper);
  expect(t.header).toEqual(['Model', 'Signal', 'ECE [95% interval]', 'Calibration test p', 'Brier', 'AUROC']);
  expect(t.rows).toHaveLength(doc.models.length * 3);
  const m = doc.models[1];
  const row = t.rows[3];
  expect(row.slice(0, 2)).toEqual([m.model, SIGNAL_LABEL.sem1]);
  const iv = m.metrics.eceInference!.sem1!.interval;
  // One number and exactly one interval: the stored one every view shows.
  expect(row[2]).toBe(`${fmt(m.metrics.signals.sem1!.ece)} [${fmt(iv[0])}, ${fmt(iv[1])}]`);
  expect(row[2].match(/\[/g)).toHaveLength(1);
  expect(row[4]).toBe(fmt(m.metrics.signals.sem1!.brier.score));
  // No cell but the ECE's carries an interval.
  for (const r of t.rows) for (const c of r.slice(3)) expect(c).not.toMatch(/\[/);
});

test('a column choice, one model (no model column), and models as rows', () => {
  const one = paperTable([doc.models[0]], { layout: 'signals', signals: ['sem2'], columns: ['auroc', 'accuracy'] });
  expect(one.header).toEqual(['Signal', 'AUROC', 'Accuracy']);
  expect(one.rows).toEqual([[SIGNAL_LABEL.sem2, fmt(doc.models[0].metrics.signals.sem2!.auroc), pct(doc.models[0].metrics.accuracy)]]);
  const wide = paperTable(doc.models, { layout: 'models', signals: ['sem1', 'sem2'], columns: ['ece', 'accuracy'] });
  expect(wide.header).toEqual(['Model', 'Accuracy', 'ECE [95% interval] Sem1', 'ECE [95% interval] Sem2']);
  expect(wide.rows).toHaveLength(doc.models.length);
});

test('the caption says what the intervals are, and never promises one the cells lack', () => {
  const caption = paperCaption(doc.models, paper);
  expect(caption).toMatch(/95% interval for the population ECE obtained by inverting a test of calibration/);
  expect(caption).toMatch(/No other cell carries an interval/);
  expect(caption).toMatch(/method consistency-inversion/);
  // A report made before intervals were stored: its caption says it has none.
  const old = doc.models.map((m) => ({ ...m, metrics: { ...m.metrics, eceInference: undefined, eceInferenceMethod: undefined } }));
  expect(paperTable(old, paper).rows[0][2]).toBe(fmt(doc.models[0].metrics.signals.sem1!.ece));
  expect(paperCaption(old, paper)).toMatch(/holds no interval for it, so no cell carries one/);
  expect(paperCaption(doc.models, { ...paper, columns: ['brier'] })).not.toMatch(/interval/);
});

test('LaTeX and Markdown carry the cells and the caption', () => {
  const t = paperTable(doc.models, paper);
  const caption = paperCaption(doc.models, paper);
  const tex = paperLatex(t, caption);
  expect(tex).toContain('\\begin{tabular}{llrrrr}');
  expect(tex).toContain('\\caption{Calibration of each confidence signal');
  expect(tex).toContain('95\\% interval');
  expect(tex.split('\n').filter((l) => l.endsWith('\\\\'))).toHaveLength(1 + t.rows.length);
  const md = paperMarkdown(t, caption).trim().split('\n');
  expect(md[1]).toBe('| :--- | :--- | ---: | ---: | ---: | ---: |');
  expect(md.at(-1)).toBe(`Table: ${caption}`);
});
