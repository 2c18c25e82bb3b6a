/**
 * The score stage's per-regime intervals and smooth ECE bandwidth: what the margin-regime bars and
 * the other-measures table draw from the document.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { biasCorrectedEceIntervals } from '../../../src/core/bias-corrected-ece';
import { smoothEceWithBandwidth } from '../../../src/core/smooth-ece';
import { readAuthorsRows } from '../../../src/formats/authors-rows';
import { scoreAuthorsRows } from '../../../src/pipeline/score-stage';
import { signalValue } from '../../../src/model/signals';
import type { SignalName } from '../../../src/model/report';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/reference-sample/${name}`, import.meta.url), 'utf8');

function report() {
  const rows = readAuthorsRows({ text: fixture('clustered.jsonl'), file: 'c' }, { text: fixture('graded.jsonl'), file: 'g' });
  if (!rows.ok) throw new Error(rows.error.message);
  return scoreAuthorsRows(rows.value, { samples: 'none', B: 300 });
}

test('every regime stores, per signal, the bias-corrected ECE and interval from resampling its own questions', () => {
  const r = report();
  const signals = Object.keys(r.metrics.signals) as SignalName[];
  let regimesWithRows = 0;
  for (const [regime, cell] of Object.entries(r.metrics.byRegime)) {
    const rows = r.questions.filter((q) => q.regime === regime);
    expect(cell.count).toBe(rows.length);
    if (rows.length === 0) continue;
    regimesWithRows++;
    const y = rows.map((q) => q.correct);
    const want = biasCorrectedEceIntervals(Object.fromEntries(signals.map((s) => [s, rows.map((q) => signalValue(q, s))])), y, { B: 300, seed: 7, bins: 10 });
    for (const s of signals) {
      const got = cell.eceBiasCorrected![s]!;
      expect(got).toEqual(want[s]);
      if (Number.isFinite(got[0])) {
        // The interval contains its estimate, and the estimate sits at or below the binned ECE (its bias removed).
        expect(got[1]).toBeLessThanOrEqual(got[0]);
        expect(got[0]).toBeLessThanOrEqual(got[2]);
      }
    }
  }
  expect(regimesWithRows).toBeGreaterThan(0);
});

test('a caller that never shows them can skip the regime intervals; everything else is the same', () => {
  const rows = readAuthorsRows({ text: fixture('clustered.jsonl'), file: 'c' }, { text: fixture('graded.jsonl'), file: 'g' });
  if (!rows.ok) throw new Error(rows.error.message);
  const without = scoreAuthorsRows(rows.value, { samples: 'none', B: 300, regimeIntervals: false });
  const full = report();
  for (const cell of Object.values(without.metrics.byRegime)) expect(cell.eceBiasCorrected).toBeUndefined();
  const strip = (m: typeof full.metrics) => ({ ...m, byRegime: Object.fromEntries(Object.entries(m.byRegime).map(([k, v]) => [k, { count: v.count, ece: v.ece }])) });
  expect(strip(without.metrics)).toEqual(strip(full.metrics));
});

test('each signal keeps the bandwidth its smooth ECE was evaluated at', () => {
  const r = report();
  for (const s of Object.keys(r.metrics.signals) as SignalName[]) {
    const m = r.metrics.signals[s]!;
    const want = smoothEceWithBandwidth(r.questions.map((q) => signalValue(q, s)), r.questions.map((q) => q.correct));
    expect(m.smoothEce).toBe(want.value);
    expect(m.smoothEceBandwidth).toBe(want.sigma);
  }
});
