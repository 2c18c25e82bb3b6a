/**
 * The report's stated-probability section (McBaselineSection) from the results of repeated
 * multiple-choice runs (stated-probability-run.ts). Pure: the numbers are the run summary's (numpy-pairwise means,
 * sample SD across runs); this only reshapes them and sorts the uniform-guess fallbacks into the
 * three kinds the report names: unparsable replies, refusals, failed requests.
 */
import type { McBaselineSection } from '../model/report';
import type { McRunResult } from './stated-probability-run';
import type { Spread } from './runs-summary';

const runSpread = (s: Spread) => ({ mean: s.mean, sd: s.sd, perRun: [...s.runs] });

export function mcBaselineSection(result: Pick<McRunResult, 'rows' | 'summary'>): McBaselineSection {
  const { rows, summary } = result;
  // Every run asks every question once, in the same order: the first run's rows give each question's k.
  const options = rows.filter((r) => r.run === 0).map((r) => r.k);
  let refusals = 0;
  let requestFailed = 0;
  let unparsable = 0;
  for (const r of rows) {
    if (r.fallback === null) continue;
    if (r.fallback === 'refusal') refusals++;
    else if (r.fallback === 'request-failed') requestFailed++;
    else unparsable++;
  }
  return {
    kind: 'confidencebench',
    runs: summary.runs,
    options,
    brier: runSpread(summary.brier),
    baselineBrier: summary.baseline,
    accuracy: runSpread(summary.accuracy),
    byCategory: Object.entries(summary.byCategory).map(([category, c]) => ({
      category,
      questions: c.questions,
      brier: c.brier.mean,
      baselineBrier: c.baseline,
      accuracy: c.accuracy.mean,
    })),
    failures: { unparsable, refusals, requestFailed, total: unparsable + refusals + requestFailed, perRun: [...summary.fallbacks.perRun] },
  };
}
