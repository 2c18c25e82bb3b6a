import { expect, test } from 'vitest';
import { packComparison, packRows, transferables } from '../../../src/workers/recompute-rows';
import { unpackRows } from '../../../src/workers/recompute-api';
import { signalColumns } from '../../../src/model/signals';
import { modelMetrics } from '../../../src/pipeline/score-stage';
import { demoDocument } from '../../e2e/report-fixture';

test('metrics from packed rows equal the metrics from the document rows', () => {
  const model = demoDocument().models[1];
  const rows = model.questions.map((q, i) => (i % 7 === 0 ? { ...q, correct: (1 - q.correct) as 0 | 1, signals: { stated: q.verbalized / 2 } } : { ...q, signals: { stated: q.verbalized / 2 } }));
  const signals = ['sem1', 'sem2', 'verbalized', 'stated'] as const;
  const options = { B: 100, smooth: false };
  const packed = packRows(rows, [...signals]);
  expect(transferables(packed)).toHaveLength(9);
  expect(modelMetrics(unpackRows(packed), { excluded: 3, signals: [...signals] }, options)).toEqual(
    modelMetrics(rows, { excluded: 3, signals: [...signals] }, options),
  );
});

test('packComparison gives the columns signalColumns gives, in its order, and the grades', () => {
  const model = demoDocument().models[0];
  const rows = model.questions.map((q, i) => (i % 3 === 0 ? { ...q, signals: { stated: i % 2 ? 0.4 : (null as unknown as number), logprob: 0.2 } } : q));
  const packed = packComparison(rows);
  const expected = signalColumns(rows);
  expect(Object.keys(packed.columns)).toEqual(Object.keys(expected));
  expect(packed.columns).toEqual(expected);
  expect([...packed.correct]).toEqual(rows.map((q) => q.correct));
  expect(packComparison([])).toEqual({ columns: {}, correct: new Uint8Array(0) });
});
