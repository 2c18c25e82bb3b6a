import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { CONFIDENCEBENCH_PAPER, SEM_ECE_PAPER, citation } from '../../../src/model/citations';
import { GLOSSARY, glossaryEntry, signalTerm } from '../../../src/model/glossary';
import { METRICS } from '../../../src/model/metrics';
import { SIGNALS, SIGNAL_ORDER } from '../../../src/model/signals';

test('the glossary defines every term the issue lists, once each, in words', () => {
  for (const id of ['sem1', 'sem2', 'c-star', 'margin', 'standardized-margin', 'jensen', 'entropy-confidence', 'ece', 'ece-equal-mass', 'mce', 'smooth-ece', 'coverage', 'selective-error', 'abstention']) {
    expect(glossaryEntry(id)?.definition.length, id).toBeGreaterThan(40);
  }
  expect(new Set(GLOSSARY.map((e) => e.id)).size).toBe(GLOSSARY.length);
});

test('the black-box signals are defined by their rows of the signals table; PRR, AUARC and the recalibrated ECE have entries', () => {
  const blackBox = SIGNALS.filter((s) => s.blackBox);
  expect(blackBox.length).toBeGreaterThan(0);
  for (const s of blackBox) expect(glossaryEntry(`signal-${s.name}`)).toEqual({ id: `signal-${s.name}`, term: s.label, definition: s.description });
  for (const id of ['prr', 'auarc', 'ece-recalibrated']) expect(glossaryEntry(id)?.definition.length, id).toBeGreaterThan(40);
  // Every signal's link goes to an entry; the paper's three, entropy confidence and every black-box signal have one.
  for (const s of SIGNAL_ORDER) if (signalTerm(s)) expect(glossaryEntry(signalTerm(s)!), s).toBeDefined();
  for (const s of ['sem1', 'sem2', 'verbalized', 'entropyConfidence', ...blackBox.map((b) => b.name)] as const) expect(signalTerm(s), s).toBeDefined();
});

function svelteFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const full = path.join(dir, f);
    return statSync(full).isDirectory() ? svelteFiles(full) : f.endsWith('.svelte') ? [full] : [];
  });
}

test('every term linked in the pages has a glossary entry (no link to nowhere)', () => {
  const ids = new Set<string>();
  for (const file of svelteFiles(path.resolve('src/ui'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/<Term id="([^"]+)"/g)) ids.add(m[1]);
    for (const m of text.matchAll(/SIGNAL_TERM[^=]*=\s*\{([^}]*)\}/g)) for (const v of m[1].matchAll(/'([^']+)'/g)) ids.add(v[1]);
  }
  // Metric columns link by the metrics table's glossary ids.
  for (const metric of METRICS) if (metric.glossary) ids.add(metric.glossary);
  expect(ids.size).toBeGreaterThan(5);
  expect([...ids].filter((id) => !glossaryEntry(id))).toEqual([]);
});

test('the papers are cited with title, authors and arXiv id', () => {
  expect(citation(SEM_ECE_PAPER)).toBe('Zhanliang Wang, Jiancong Xiao, Ruochen Jin, Shu Yang, Bojian Hou, Li Shen (2026). A Semantic-Sampling Framework for Evaluating Calibration in Open-Ended Question Answering. arXiv:2605.08432');
  expect(CONFIDENCEBENCH_PAPER.url).toBe('https://arxiv.org/abs/2607.20526');
});
