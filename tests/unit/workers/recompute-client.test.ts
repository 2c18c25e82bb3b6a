/**
 * The report page's comparison of a report saved before it was stored, and the Slices tab's
 * slices: the recompute client's answer is the pipeline's (here, in Node, where no Worker starts,
 * on the main thread, as in an offline report that forbids workers), and a refusal comes back as
 * a value in the one error shape, kind kept, with the page's message.
 */
import { expect, test } from 'vitest';
import { compareModelSignals } from '../../../src/workers/recompute-client';
import { compareReportSignals } from '../../../src/pipeline/signal-comparison';
import { sliceModel } from '../../../src/workers/slices-client';
import { sliceReport } from '../../../src/pipeline/slices';
import type { SignalName } from '../../../src/model/report';
import { sampleReport } from '../share/report-fixture';

test('compareModelSignals answers what compareReportSignals computes', async () => {
  const model = sampleReport({ questions: 120, samples: false }).models[0];
  const options = { B: 200, seed: 7, bins: 10 };
  expect(await compareModelSignals(model, options)).toEqual({ ok: true, value: compareReportSignals(model, options) });
});

test('a comparison over the budget is refused with the page\'s message', async () => {
  const model = sampleReport({ questions: 20, samples: false }).models[0];
  const result = await compareModelSignals(model, { B: 1e9, seed: 7, bins: 10 });
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error.message).toMatch(/^The signals could not be compared: This report is too large to compare its signals here: /);
  expect(result).toMatchObject({ ok: false, error: { kind: 'compare', name: 'RecomputeTooLargeError' } });
});

test('sliceModel answers what sliceReport computes, and refuses a column nobody has in words', async () => {
  const model = sampleReport({ questions: 60, samples: false }).models[0];
  const questions = model.questions.map((q, i) => ({ ...q, fields: { topic: i % 2 ? 'odd' : 'even' } }));
  const signals: SignalName[] = ['sem1', 'sem2'];
  const options = { bins: 10, seed: 3 };
  expect(await sliceModel({ questions, column: 'topic', signals, options })).toEqual({ ok: true, value: sliceReport(questions, 'topic', signals, options) });
  const refused = await sliceModel({ questions, column: 'colour', signals, options });
  expect(refused).toMatchObject({ ok: false, error: { kind: 'slices' } });
  if (!refused.ok) expect(refused.error.message).toMatch(/^The slices could not be computed: .*colour/);
});
