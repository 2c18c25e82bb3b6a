/**
 * The report schema's part for the stored abstention thresholds (model/report.ts
 * StoredAbstention, pipeline/abstention-metrics.ts): absent from reports saved before them.
 */
import { z } from 'zod';
import { bySignal, count, expect, list, rate, rateInterval, seed, text, unit } from './report-schema-fields';

/** More splits than any report stores (the app stores 20): a bound on what a document may hold. */
const ABSTENTION_MAX_SPLITS = 1000;

const selectiveCounts = z
  .object({
    questions: count(),
    answered: count(),
    errors: count(),
    correct: count(),
    incorrect: count(),
    notAttempted: count(),
    abstained: count(),
    declined: count(),
    coverage: rateInterval,
    error: rateInterval,
  })
  .refine((c) => c.answered <= c.questions && c.errors <= c.answered && c.correct + c.incorrect + c.notAttempted === c.questions, {
    error: 'counts do not add up (answered ≤ questions, errors ≤ answered, correct + incorrect + not attempted = questions)',
  });

const threshold = z.union([unit(), z.null()], { error: expect('a number in [0,1] or null') });

const entry = z.object({
  threshold,
  reason: text().optional(),
  choice: z.object({ threshold, answered: count(), errors: count(), bound: rate(), delta: unit(), tried: count() }),
  selection: selectiveCounts,
  evaluation: selectiveCounts,
  spread: z.object({
    splits: list(z.object({ seed: seed(), threshold, bound: rate(), heldOut: z.object({ questions: count(), answered: count(), errors: count() }) }), ABSTENTION_MAX_SPLITS),
    heldOutError: z.object({ median: rate(), min: rate(), max: rate() }),
    exceeded: count(0, ABSTENTION_MAX_SPLITS),
    abstainedOnAll: count(0, ABSTENTION_MAX_SPLITS),
  }),
});

export const storedAbstention = z.object({
  target: unit(),
  seed: seed(),
  delta: unit(),
  splits: count(0, ABSTENTION_MAX_SPLITS),
  bySignal: bySignal(entry),
});
