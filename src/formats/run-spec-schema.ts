/**
 * The zod schema of a RunSpec (model/run-spec.ts): the one check a stored run's settings
 * (store/run-records.ts) and the New run wizard's saved draft (ui/run/draft-storage.ts) are read
 * back through. Objects are loose: fields the check does not name are kept as they are.
 *
 * The scoring settings are bounded by model/scoring-limits.ts, worded as the report schema words
 * them ("expected a whole number from 1 to 1,000, got 5000"), so the wizard's fold-out, a stored
 * run and an imported report refuse the same values with the same message.
 */
import { z } from 'zod';
import { MAX_BINS, MAX_BOOTSTRAP_B, MIN_BINS } from '../model/scoring-limits';
import { count, seed, sem2SettingsSchema } from './report-schema-fields';
import { CLUSTERING_METHODS, clusteringSpecSchemaOf, judgePromptSchema, modelSpecSchema, type ClusteringMethodTable } from '../model/clustering-methods';
import { adaptiveRuleProblems, DEFAULT_ADAPTIVE_RULE } from '../core/adaptive-rule';
import type { AdaptiveSettings } from '../model/run-spec';

const text = z.string();
const whole = z.number().int().min(0);

export { modelSpecSchema };
const prompt = judgePromptSchema;
const question = z.looseObject({ id: text, question: text, answer: text, aliases: z.array(text).optional(), options: z.array(text).optional() });

/** One loose object per clustering method, from the methods table. */
export const clusteringSpecSchema = clusteringSpecSchemaOf();

export const gradingSpecSchema = z.discriminatedUnion('method', [z.looseObject({ method: z.literal('alias') }), z.looseObject({ method: z.literal('judge'), judge: modelSpecSchema, prompt })]);

/** Scoring settings (ScoringSpec), within the bounds a report may ask for. */
export const scoringSpecSchema = z.object({
  sem2: sem2SettingsSchema,
  bins: count(MIN_BINS, MAX_BINS),
  // At least one replicate: the paired bootstrap's intervals need one (the CLI's --B starts at 1 too).
  bootstrap: z.object({ B: count(1, MAX_BOOTSTRAP_B), seed: seed() }),
});

/**
 * An adaptive run's stopping rule without its maximum (model/run-spec.ts AdaptiveSettings): a
 * number for each of the rule's settings (its fields are the defaults' keys, so the rule's module
 * alone names them); their ranges are adaptiveRuleProblems's to check.
 */
export const adaptiveSettingsSchema = z.looseObject(
  Object.fromEntries(Object.keys(DEFAULT_ADAPTIVE_RULE).map((k) => [k, z.number()])),
) as unknown as z.ZodType<AdaptiveSettings>;

/** p(True) after sampling (model/run-spec.ts PTrueSpec): at least one reply. */
export const pTrueSpecSchema = z.looseObject({ samples: z.number().int().min(1), brainstorm: z.boolean() });

/** The sampling settings; an adaptive rule is checked against the run's maximum, `n` (core/adaptive-rule.ts adaptiveRuleProblems). */
export const samplingSpecSchema = z
  .looseObject({ n: whole, temperature: z.number(), topP: z.number().optional(), maxTokens: whole, prompt: text, concurrency: whole, adaptive: adaptiveSettingsSchema.optional(), logprobs: z.boolean().optional(), pTrue: pTrueSpecSchema.optional() })
  .superRefine((s, ctx) => {
    if (!s.adaptive) return;
    for (const message of adaptiveRuleProblems({ ...s.adaptive, maxSamples: s.n })) ctx.addIssue({ code: 'custom', path: ['adaptive'], message });
  });

/** The schema of a RunSpec whose clustering is one of `table`'s methods (a test's copy with a method of its own; the shipped table by default). */
export function runSpecSchemaOf<T extends ClusteringMethodTable = typeof CLUSTERING_METHODS>(table: T = CLUSTERING_METHODS as unknown as T) {
  return z.looseObject({
    title: text,
    dataset: z.looseObject({ name: text, source: text, questions: z.array(question) }),
    models: z.array(modelSpecSchema),
    sampling: samplingSpecSchema,
    clustering: clusteringSpecSchemaOf(table),
    grading: gradingSpecSchema,
    scoring: scoringSpecSchema.optional(),
    mc: z.looseObject({ runs: whole, seed: z.number(), samples: whole, logprobs: z.boolean() }).optional(),
  });
}

export const runSpecSchema = runSpecSchemaOf();

/**
 * A RunSpec still being written (the wizard's draft): any field may be missing, and the dataset
 * is not part of it (the wizard keeps its own choice of source and reads the questions again).
 */
export const draftSpecSchema = runSpecSchema.omit({ dataset: true }).partial();
