import Papa from 'papaparse';
import { expect, test } from 'vitest';
import { headlineCsv, headlineLatex, headlineMarkdown, headlineTable, latexText } from '../../../src/formats/headline-table';
import { fmt, fmtInterval, pct } from '../../../src/formats/numbers';
import { demoDocument } from '../../e2e/report-fixture';

const doc = demoDocument();

test('the headline table holds the numbers as the report shows them, one row per model', () => {
  const t = headlineTable(doc.models);
  expect(t.header.slice(0, 4)).toEqual(['Model', 'Questions', 'Excluded', 'Accuracy']);
  expect(t.header).toContain('ECE Sem1');
  expect(t.header).toContain('Debiased ECE Sem1 [95% CI]');
  expect(t.header).toContain('Brier Sem1');
  expect(t.header).toContain('AUROC Sem2');
  const m = doc.models[0];
  const row = t.rows[0];
  expect(row[0]).toBe(m.model);
  expect(row[3]).toBe(pct(m.metrics.accuracy));
  expect(row[t.header.indexOf('ECE Sem1')]).toBe(fmt(m.metrics.signals.sem1!.ece));
  const bc = m.metrics.eceBiasCorrected!.sem1!;
  // The interval goes with the estimate it contains.
  expect(row[t.header.indexOf('Debiased ECE Sem1 [95% CI]')]).toBe(fmtInterval(bc[0], bc));
  expect(bc[1] <= bc[0] && bc[0] <= bc[2]).toBe(true);
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
  expect(tex).toContain('Debiased ECE Sem1 [95\\% CI]');
  expect(tex).toContain(`${latexText(t.rows[0][0])} & ${t.rows[0][1]} &`);
  expect(tex).toContain('\\bottomrule');
});

test('LaTeX and Markdown escape what would break them', () => {
  expect(latexText('a_b & 50% #1 {x} ~ ^ \\ $ —')).toBe('a\\_b \\& 50\\% \\#1 \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{} \\$ ---');
  expect(headlineMarkdown({ header: ['Model'], rows: [['a|b\nc']] })).toBe('| Model |\n| :--- |\n| a\\|b c |\n');
});
