import Papa from 'papaparse';
import { expect, test } from 'vitest';
import { eceIntervalOf, fmtP, headlineCsv, headlineLatex, headlineMarkdown, headlineTable, latexText } from '../../../src/formats/headline-table';
import { fmt, pct } from '../../../src/formats/numbers';
import { demoDocument } from '../../e2e/report-fixture';

const doc = demoDocument();

test('the headline table holds the numbers as the report shows them, one row per model', () => {
  const t = headlineTable(doc.models);
  expect(t.header.slice(0, 4)).toEqual(['Model', 'Questions', 'Excluded', 'Accuracy']);
  expect(t.header).toContain('ECE Sem1');
  expect(t.header).toContain('ECE Sem1 95% CI');
  expect(t.header).toContain('Calibration p Sem1');
  // One interval per ECE, from one method: no bias-corrected ("debiased") estimate beside it.
  expect(t.header.join(' ')).not.toMatch(/debiased|bias-corrected/i);
  expect(t.header).toContain('Brier Sem1');
  expect(t.header).toContain('AUROC Sem2');
  const m = doc.models[0];
  const row = t.rows[0];
  expect(row[0]).toBe(m.model);
  expect(row[3]).toBe(pct(m.metrics.accuracy));
  expect(row[t.header.indexOf('ECE Sem1')]).toBe(fmt(m.metrics.signals.sem1!.ece));
  // The interval is the stored eceInference's, the one every view shows (eceIntervalOf).
  const iv = m.metrics.eceInference!.sem1!.interval;
  expect(eceIntervalOf(m.metrics, 'sem1')).toEqual(iv);
  expect(row[t.header.indexOf('ECE Sem1 95% CI')]).toBe(`[${fmt(iv[0])}, ${fmt(iv[1])}]`);
  expect(row[t.header.indexOf('Calibration p Sem1')]).toBe(fmtP(m.metrics.eceInference!.sem1!.p));
  expect(row[t.header.indexOf('Brier Sem1')]).toBe(fmt(m.metrics.signals.sem1!.brier.score));
  expect(t.rows).toHaveLength(doc.models.length);
});

test('CSV, Markdown and LaTeX carry the same cells', () => {
  const t = headlineTable(doc.models);
  const csv = Papa.parse<string[]>(headlineCsv(t), { skipEmptyLines: true }).data;
  expect(csv).toEqual([t.header, ...t.rows]);
  const md = headlineMarkdown(t).trim().split('\n');
  expect(md).toHaveLength(2 + t.rows.length);
  expect(md[1]).toMatch(/^\| :--- \| ---: \|/);
  expect(md[2]).toContain(`| ${t.rows[0][0]} |`);
  const tex = headlineLatex(t);
  expect(tex).toMatch(/\\begin\{tabular\}\{lr+\}\n\\toprule\nModel & Questions & Excluded & Accuracy & ECE Sem1 & /);
  expect(tex).toContain('ECE Sem1 95\\% CI & ');
  expect(tex).toContain(`${latexText(t.rows[0][0])} & ${t.rows[0][1]} &`);
  expect(tex).toContain('\\bottomrule');
});

test('LaTeX and Markdown escape what would break them', () => {
  expect(latexText('a_b & 50% #1 {x} ~ ^ \\ $ —')).toBe('a\\_b \\& 50\\% \\#1 \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{} \\$ ---');
  expect(headlineMarkdown({ header: ['Model'], rows: [['a|b\nc']] })).toBe('| Model |\n| :--- |\n| a\\|b c |\n');
});

test('a report without the stored inference (made before it existed) shows no interval rather than another method\'s', () => {
  const m = structuredClone(doc.models[0]);
  delete m.metrics.eceInference;
  expect(eceIntervalOf(m.metrics, 'sem1')).toBeNull();
  const t = headlineTable([m]);
  expect(t.rows[0][t.header.indexOf('ECE Sem1 95% CI')]).toBe('—');
  expect(t.rows[0][t.header.indexOf('Calibration p Sem1')]).toBe('—');
});

test('p-values print with three decimals, and below 0.001 as < 0.001', () => {
  expect([fmtP(0.5), fmtP(0.0123), fmtP(0.0004997), fmtP(null), fmtP(NaN)]).toEqual(['0.500', '0.012', '< 0.001', '—', '—']);
});
