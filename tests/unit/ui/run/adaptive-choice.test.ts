/**
 * The wizard's Adaptive choice: its defaults fitted to the models' samples per request, its
 * problems in the rule's words with n as the maximum, the spec it makes (sampling.adaptive, only
 * when chosen, never for a multiple-choice run), and the draft saved and restored with it on and off.
 */
import { describe, expect, test } from 'vitest';
import { describeAdaptive } from '../../../../src/ui/adaptive-rule-text';
import { adaptiveProblems, adaptiveSettingsOf, defaultAdaptive, fitRound, fittedAdaptive, requestsPerRound, samplesPerRequest } from '../../../../src/ui/run/adaptive-choice';
import { DEFAULT_ADAPTIVE_RULE } from '../../../../src/core/adaptive-rule';
import { RunDraft } from '../../../../src/ui/run/draft.svelte';
import { restoreDraft, saveDraft } from '../../../../src/ui/run/draft-storage';
import { runSpecSchema } from '../../../../src/formats/run-spec-schema';
import { memoryStorage, noHub } from './draft-fixtures';

describe('rounds fitted to samples per request', () => {
  test('a round larger than one request is cut to whole requests; one sample per request leaves it', () => {
    expect(fitRound(15, 16)).toBe(15);
    expect(fitRound(15, 4)).toBe(12);
    expect(fitRound(5, 4)).toBe(4);
    expect(fitRound(15, 1)).toBe(15);
    expect(requestsPerRound(15, 4)).toBe(4);
    expect(requestsPerRound(5, 128)).toBe(1);
    expect(requestsPerRound(5, 1)).toBe(5);
  });

  test('the fewest samples per request among the models the table knows', () => {
    expect(samplesPerRequest([{ preset: 'openai', model: 'gpt-4o-mini' }])).toBe(128);
    expect(samplesPerRequest([{ preset: 'openai', model: 'gpt-4o-mini' }, { preset: 'in-browser', model: 'x' }])).toBe(16);
    expect(samplesPerRequest([{ preset: 'ollama', model: 'llama3' }, { preset: 'openai', model: 'gpt-4o-mini' }])).toBe(1);
    // A server probed at run time is not known: nothing to fit to.
    expect(samplesPerRequest([{ preset: 'custom', model: 'm' }])).toBe(1);
    // A provider returning 128 per request takes any default round in one request: unchanged.
    expect(fittedAdaptive([{ preset: 'openai', model: 'gpt-4o-mini' }])).toEqual(DEFAULT_ADAPTIVE_RULE);
  });
});

describe('problems', () => {
  test('the rule is checked with n as the maximum, each problem a sentence', () => {
    expect(adaptiveProblems(defaultAdaptive(), 50)).toEqual([]);
    const tooBig = adaptiveProblems({ ...defaultAdaptive(), firstRound: 60, maxSelection: 60 }, 50);
    expect(tooBig).toHaveLength(1);
    expect(tooBig[0]).toMatch(/^Adaptive sampling: the first round \(60\) must be smaller than the maximum samples per question \(50\).*\.$/);
    // An emptied field (null from a number input) is named, not passed.
    expect(adaptiveProblems({ ...defaultAdaptive(), roundSize: null as unknown as number }, 50)[0]).toContain('the round size must be a whole number');
    // The unsettled block's size is optional: emptied, it is absent (the rest up to n); set, it is checked.
    expect(adaptiveProblems({ ...defaultAdaptive(), unsettledHeldOut: null as unknown as number }, 50)).toEqual([]);
    expect(adaptiveProblems({ ...defaultAdaptive(), unsettledHeldOut: 0 }, 50)[0]).toContain('the held-out block of an unsettled question');
    expect(adaptiveSettingsOf({ ...defaultAdaptive(), unsettledHeldOut: 30 }).unsettledHeldOut).toBe(30);
    expect('unsettledHeldOut' in adaptiveSettingsOf({ ...defaultAdaptive(), unsettledHeldOut: null as unknown as number })).toBe(false);
  });

  test('the draft stops step 3 on them only when adaptive is chosen', () => {
    const d = new RunDraft(noHub());
    d.adaptive.settings.agreement = 2;
    expect(d.problems(2).some((p) => p.includes('agreement'))).toBe(false);
    d.adaptive.on = true;
    expect(d.problems(2).some((p) => p.startsWith('Adaptive sampling: the agreement share must be in (0, 1]'))).toBe(true);
  });
});

describe('the spec and the saved draft', () => {
  test('chosen: sampling.adaptive in the spec, which the run schema accepts; not chosen: absent', () => {
    const d = new RunDraft(noHub());
    expect(d.toSpec().sampling.adaptive).toBeUndefined();
    d.adaptive.on = true;
    d.adaptive.settings.firstRound = 4;
    d.sampling.n = 30;
    const spec = d.toSpec();
    expect(spec.sampling.adaptive).toEqual({ ...DEFAULT_ADAPTIVE_RULE, firstRound: 4 });
    expect(runSpecSchema.safeParse(spec).success).toBe(true);
    const rule = { firstRound: 4, roundSize: 5, maxSelection: 10, agreement: 1, settledHeldOut: 15, unsettledHeldOut: 20 };
    expect(describeAdaptive(rule, 30)).toBe(
      'at most 30 samples per question: the selection block is drawn in a first round of 4 and later rounds of 5, up to 10; a question is settled when every selection sample agrees and then draws 15 held-out samples; an unsettled one draws up to 20 held-out samples, within the maximum',
    );
    expect(describeAdaptive({ ...rule, agreement: 0.8 }, 30)).toContain('settled when its top answer holds 80% of the selection');
    expect(describeAdaptive({ ...rule, maxSelection: 4 }, 30)).toContain('samples per question: the selection block is the first 4 samples; a question');
  });

  test('a multiple-choice run samples at a fixed n: no rule in its spec', () => {
    const d = new RunDraft(noHub());
    d.adaptive.on = true;
    d.mode = 'mc';
    // The demo questions have no options: the mode falls back to open answers and keeps the rule.
    expect(d.isMc).toBe(false);
    expect(d.toSpec().sampling.adaptive).toBeDefined();
  });

  test('saved and restored on, and off with its settings kept for switching back', () => {
    const storage = memoryStorage();
    const d = new RunDraft(noHub());
    d.adaptive = { on: true, settings: { ...defaultAdaptive(), roundSize: 4, settledHeldOut: 12 } };
    saveDraft(d, storage);
    const back = new RunDraft(noHub());
    expect(restoreDraft(back, storage).note).toBeUndefined();
    expect(back.adaptive).toEqual(d.adaptive);

    d.adaptive.on = false;
    saveDraft(d, storage);
    const off = new RunDraft(noHub());
    restoreDraft(off, storage);
    expect(off.adaptive).toEqual({ on: false, settings: { ...defaultAdaptive(), roundSize: 4, settledHeldOut: 12 } });
    expect(off.toSpec().sampling.adaptive).toBeUndefined();
  });
});
