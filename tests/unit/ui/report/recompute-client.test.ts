/**
 * The report page's comparison of a report saved before it was stored: the recompute client's
 * answer is compareReportSignals' (here, in Node, where no Worker starts, on the main thread),
 * and a refusal comes back as a value with the page's message.
 */
import { expect, test } from 'vitest';
import { compareModelSignals } from '../../../../src/ui/report/recompute-client';
import { compareReportSignals } from '../../../../src/pipeline/signal-comparison';
import { sampleReport } from '../../share/report-fixture';

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
});
