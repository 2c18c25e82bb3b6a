/**
 * The report schema's part for a multiple-choice run's stated-probability baseline (model/report.ts
 * McBaselineSection, multiple-choice/report-document.ts): its Brier score and accuracy across runs.
 */
import { z } from 'zod';
import { MAX_BASELINE_RUNS, MAX_REPORT_QUESTIONS } from '../model/scoring-limits';
import { count, expect, list, rate, stat, text } from './report-schema-fields';

const questionCount = () => count(0, MAX_REPORT_QUESTIONS);

/** Across runs: a mean and SD the core may leave undefined (one run: SD null), each run's value. */
const runSpread = z.object({ mean: rate(), sd: rate(), perRun: list(rate(), MAX_BASELINE_RUNS) });

/** The stated-probability baseline (report-document.ts McBaselineSection). */
export const mcBaseline = z
  .object({
    kind: z.literal('confidencebench', { error: expect("'confidencebench'") }),
    runs: count(1, MAX_BASELINE_RUNS),
    options: list(count(2).max(10, { error: 'expected 2 to 10 options' }), MAX_REPORT_QUESTIONS),
    // The Brier score of one stated probability is in [0,1]; the uniform guess's (k − 1)/k² ≤ 1/4.
    brier: runSpread,
    baselineBrier: stat(0, 0.25),
    accuracy: runSpread,
    byCategory: list(
      z.object({ category: text(), questions: questionCount(), brier: rate(), baselineBrier: stat(0, 0.25), accuracy: rate() }),
      100_000,
    ),
    failures: z.object({
      unparsable: count(),
      refusals: count(),
      requestFailed: count(),
      total: count(),
      perRun: list(count(), MAX_BASELINE_RUNS),
    }),
  })
  .superRefine((b, ctx) => {
    // The panel draws one bar per run: a list that disagrees with `runs` would draw the wrong chart.
    for (const key of ['brier', 'accuracy'] as const) {
      if (b[key].perRun.length !== b.runs) {
        ctx.addIssue({ code: 'custom', path: [key, 'perRun'], message: `${b[key].perRun.length} values but runs is ${b.runs}` });
      }
    }
    if (b.failures.unparsable + b.failures.refusals + b.failures.requestFailed !== b.failures.total) {
      ctx.addIssue({ code: 'custom', path: ['failures', 'total'], message: 'expected unparsable + refusals + requestFailed' });
    }
  });
