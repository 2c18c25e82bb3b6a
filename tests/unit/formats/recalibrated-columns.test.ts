/**
 * The headline and paper tables of a version-3 report (issue 29): PRR, AUARC and the ECE after
 * isotonic and Platt recalibration per signal beside the raw ECE, and no raw calibration column
 * for a signal that is not a probability. A version-2 report keeps its columns as they were.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { headlineTable } from '../../../src/formats/headline-table';
import { paperCaption, paperTable } from '../../../src/formats/paper-table';
import { parseReport } from '../../../src/formats/report-import';
import { fmt } from '../../../src/formats/numbers';
import type { ReportDocument } from '../../../src/model/report';

function open(file: string): ReportDocument {
  const r = parseReport(readFileSync(`tests/fixtures/report-versions/${file}`, 'utf8'));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

test('the headline table gains PRR, AUARC and the recalibrated ECEs, and has no raw ECE column for a confidence form', () => {
  const doc = open('v3.json');
  const m = doc.models[0].metrics;
  const t = headlineTable(doc.models);
  const at = (h: string) => t.rows[0][t.header.indexOf(h)];
  expect(at('PRR Sem1')).toBe(fmt(m.rejection!.sem1!.prr));
  expect(at('AUARC EigV')).toBe(fmt(m.rejection!.eigv!.auarc));
  const iso = m.recalibration!.isotonic.sem1!;
  expect(at('ECE isotonic Sem1 [95% CI]')).toBe(`${fmt(iso.ece)} [${fmt(iso.interval[0])}, ${fmt(iso.interval[1])}]`);
  expect(at('ECE Sem1')).toBe(fmt(m.signals.sem1!.ece));
  // No raw calibration column for a score that is not a probability (as on the page).
  expect(t.header).not.toContain('ECE NumSets');
  expect(t.header).not.toContain('Brier NumSets');
  expect(t.header).not.toContain('Calibration p NumSets');
  expect(at('AUROC NumSets')).toBe(fmt(m.signals.num_sets!.auroc));

  const old = headlineTable(open('v2.json').models);
  expect(old.header.some((h) => h.startsWith('PRR') || h.startsWith('ECE isotonic'))).toBe(false);
});

test("the paper table's signals layout reads raw against recalibrated ECE per signal, the caption saying what each is", () => {
  const doc = open('v3.json');
  const o = { layout: 'signals' as const, signals: ['sem1', 'num_sets'] as const, columns: ['ece', 'eceIsotonic', 'ecePlatt', 'prr'] as const };
  const t = paperTable(doc.models, { ...o, signals: [...o.signals], columns: [...o.columns] });
  expect(t.header).toEqual(['Signal', 'ECE [95% interval]', 'ECE after isotonic [95% interval]', 'ECE after Platt [95% interval]', 'PRR']);
  const m = doc.models[0].metrics;
  expect(t.rows[1][1]).toBe('—');
  expect(t.rows[1][3].startsWith(fmt(m.recalibration!.platt.num_sets!.ece))).toBe(true);
  const caption = paperCaption(doc.models, { ...o, signals: [...o.signals], columns: [...o.columns] });
  expect(caption).toContain('split seed 7');
  expect(caption).toContain('not a probability');
});
