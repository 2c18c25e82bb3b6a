/**
 * The run spec's schema (formats/run-spec-schema.ts) and an adaptive run's rule: a stored run or a
 * draft with `sampling.adaptive` reads back as it was (its optional settings too); a rule that does
 * not fit the run's maximum is refused in the rule's own words; a spec without it is untouched.
 */
import { expect, test } from 'vitest';
import { draftSpecSchema, runSpecSchema } from '../../../src/formats/run-spec-schema';
import { DEFAULT_ADAPTIVE_RULE } from '../../../src/core/adaptive-rule';
import { adaptiveRuleOf, type RunSpec } from '../../../src/model/run-spec';

const spec = (sampling: Partial<RunSpec['sampling']> = {}): RunSpec => ({
  title: 't',
  dataset: { name: 'd', source: 'test', questions: [{ id: 'q', question: 'Q?', answer: 'A' }] },
  models: [{ kind: 'openai', preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'm' }],
  sampling: { n: 50, temperature: 1, maxTokens: 64, prompt: '{question}', concurrency: 4, ...sampling },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
});

test('an adaptive spec reads back with its rule; n is the rule’s maximum', () => {
  const adaptive = { ...DEFAULT_ADAPTIVE_RULE, unsettledHeldOut: 30 };
  const read = runSpecSchema.safeParse(spec({ adaptive }));
  expect(read.success).toBe(true);
  expect(read.data?.sampling.adaptive).toEqual(adaptive);
  expect(adaptiveRuleOf(spec({ adaptive }).sampling)).toEqual({ ...adaptive, maxSamples: 50 });
  expect(adaptiveRuleOf(spec().sampling)).toBeUndefined();
  expect(runSpecSchema.safeParse(spec()).data?.sampling).not.toHaveProperty('adaptive');
  expect(draftSpecSchema.safeParse({ sampling: spec({ adaptive }).sampling }).success).toBe(true);
});

test('a rule that does not fit the maximum, or a setting missing, is refused', () => {
  const tooBig = runSpecSchema.safeParse(spec({ n: 5, adaptive: { ...DEFAULT_ADAPTIVE_RULE, firstRound: 5 } }));
  expect(tooBig.success).toBe(false);
  expect(tooBig.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n')).toMatch(/sampling\.adaptive: the first round \(5\) must be smaller than the maximum samples per question \(5\)/);
  const { firstRound: _missing, ...partial } = DEFAULT_ADAPTIVE_RULE;
  expect(runSpecSchema.safeParse(spec({ adaptive: partial as typeof DEFAULT_ADAPTIVE_RULE })).success).toBe(false);
});
