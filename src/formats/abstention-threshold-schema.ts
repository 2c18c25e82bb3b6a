/**
 * The schema of the abstention threshold document (abstention-threshold.ts): zod checks of every
 * field, with the report schema's field messages, and counts that must add up. A module of its
 * own so the report view loads zod only when a threshold file is opened.
 */
import { z } from 'zod';
import type { Result, StageError } from '../model/rows';
import { MAX_THRESHOLD_BYTES, THRESHOLD_FORMAT, THRESHOLD_VERSION, type ThresholdDocument } from './abstention-threshold';
import { count, expect, rate, rateInterval, seed, signalName, text, unit } from './report-schema-fields';
import { formatPath } from './field-path';

const counts = z
  .object({
    questions: count(),
    answered: count(),
    correct: count(),
    incorrect: count(),
    notAttempted: count(),
    abstained: count(),
    declined: count(),
    coverage: rateInterval,
    error: rateInterval,
  })
  .refine((c) => c.answered <= c.questions && c.correct + c.incorrect + c.notAttempted === c.questions && c.abstained + c.declined === c.notAttempted, {
    error: 'counts do not add up (correct + incorrect + not attempted must be the questions, abstained + declined the not attempted)',
  });

export const thresholdDocumentSchema = z.object({
  format: z.literal(THRESHOLD_FORMAT, { error: `expected "${THRESHOLD_FORMAT}"` }),
  version: z.literal(THRESHOLD_VERSION, { error: `expected ${THRESHOLD_VERSION} (this app reads version ${THRESHOLD_VERSION})` }),
  report: z.object({ title: text(), createdAt: text(), dataset: text() }),
  model: text(),
  signal: signalName,
  target: unit(),
  threshold: z.union([unit(), z.null()], { error: expect('a number in [0,1] or null') }),
  rule: text(),
  split: z.object({ seed: seed(), selection: count(), evaluation: count() }),
  interval: z.literal('wilson-95', { error: 'expected "wilson-95"' }),
  selection: counts,
  evaluation: counts,
  // Absent in files written before the guarantee and the repeated splits.
  guarantee: z.object({ delta: unit(), tried: count(), bound: z.union([unit(), z.null()], { error: expect('a number in [0,1] or null') }) }).optional(),
  spread: z
    .object({
      splits: count(),
      heldOutError: z.object({ median: rate(), min: rate(), max: rate() }),
      exceeded: count(),
      abstainedOnAll: count(),
    })
    .optional(),
});

// The schema's output must be usable wherever a ThresholdDocument is expected.
const _assignable = (p: z.output<typeof thresholdDocumentSchema>): ThresholdDocument => p;
void _assignable;

function refuse(message: string, where?: string): Result<ThresholdDocument> {
  const error: StageError = { kind: 'threshold-import', message, ...(where ? { where } : {}) };
  return { ok: false, error };
}

/** Reads a threshold document from JSON text; the message names the first bad field. */
export function parseThresholdDocument(input: string): Result<ThresholdDocument> {
  if (input.length > MAX_THRESHOLD_BYTES) return refuse(`The threshold file is ${input.length.toLocaleString('en')} characters; a threshold file is at most ${MAX_THRESHOLD_BYTES.toLocaleString('en')}.`);
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (e) {
    return refuse(`The threshold file is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || (value as { format?: unknown }).format !== THRESHOLD_FORMAT) {
    return refuse(`Not a Sem-ECE abstention threshold: "format" must be "${THRESHOLD_FORMAT}".`, 'format');
  }
  const parsed = thresholdDocumentSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const first = parsed.error.issues[0];
  const where = formatPath(first.path);
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem${parsed.error.issues.length > 2 ? 's' : ''})` : '';
  return refuse(`${where}: ${first.message}${more}`, where);
}

