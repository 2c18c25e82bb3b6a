import { describe, expect, test } from 'vitest';
import { EXTRA_SIGNALS, PAPER_SIGNALS, SIGNAL_ABBR, SIGNAL_LABEL, SIGNAL_NAMES, SIGNAL_ORDER, SIGNAL_SHORT, SIGNALS, isPaperSignal, signalValue } from '../../../src/model/signals';
import { parseReport } from '../../../src/formats/report-import';
import { csvColumns } from '../../../src/formats/report-export';
import { sampleReport } from '../share/report-fixture';

describe('the signals table', () => {
  test('one entry per signal name, in the listed order, each with every label', () => {
    expect(SIGNALS.map((s) => s.name)).toEqual([...SIGNAL_NAMES]);
    expect(SIGNAL_ORDER).toEqual([...SIGNAL_NAMES]);
    for (const s of SIGNALS) {
      for (const text of [s.label, s.short, s.abbr, s.description]) expect(text.length).toBeGreaterThan(0);
      expect(SIGNAL_LABEL[s.name]).toBe(s.label);
      expect(SIGNAL_SHORT[s.name]).toBe(s.short);
      expect(SIGNAL_ABBR[s.name]).toBe(s.abbr);
    }
    expect(PAPER_SIGNALS).toEqual(['sem1', 'sem2', 'verbalized']);
    expect([...PAPER_SIGNALS, ...EXTRA_SIGNALS]).toEqual([...SIGNAL_NAMES]);
    expect(SIGNAL_NAMES.filter(isPaperSignal)).toEqual(PAPER_SIGNALS);
  });

  test('the report schema accepts exactly the table names as signal keys', () => {
    const doc = JSON.parse(JSON.stringify(sampleReport()));
    doc.models[0].questions[0].signals = Object.fromEntries(SIGNAL_NAMES.filter((s) => !isPaperSignal(s)).map((s) => [s, 0.5]));
    doc.models[0].questions[0].signals.astrology = 0.5;
    const r = parseReport(doc);
    if (!r.ok) throw new Error(r.error.message);
    expect(Object.keys(r.value.models[0].questions[0].signals!)).toEqual([...EXTRA_SIGNALS]);
  });

  test('CSV columns: the paper signals always, the others when some row has them, in table order', () => {
    const doc = sampleReport();
    const cols = csvColumns(doc);
    expect(cols.filter((c) => (SIGNAL_NAMES as readonly string[]).includes(c))).toEqual(
      SIGNAL_NAMES.filter((s) => isPaperSignal(s) || doc.models.some((m) => m.questions.some((q) => q.signals?.[s] !== undefined))),
    );
  });

  test('a signal value: fixed fields, signals, the entropy mapping, NaN when absent', () => {
    const q = { sem1: 0.9, sem2: 0.8, verbalized: 0.7, entropy: Math.log(2), signals: { stated: 0.6 } };
    expect(PAPER_SIGNALS.map((s) => signalValue(q, s))).toEqual([0.9, 0.8, 0.7]);
    expect(signalValue(q, 'stated')).toBe(0.6);
    expect(signalValue(q, 'logprob')).toBeNaN();
    expect(signalValue(q, 'entropyConfidence')).toBeCloseTo(0.5, 15);
  });
});
