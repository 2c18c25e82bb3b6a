/**
 * The wizard's extra signals (ExtraSignalFields.svelte): p(True) and token logprobs are sampling
 * settings of the draft, go to the spec and back unchanged, pass the run spec's schema, and are
 * absent (keys and all) when not chosen, so a run without them keys its samples as before.
 */
import { describe, expect, test } from 'vitest';
import { RunDraft } from '../../../../src/ui/run/draft.svelte';
import { noHub } from './draft-fixtures';
import { draftSpecSchema } from '../../../../src/formats/run-spec-schema';

describe('p(True) and logprobs in the draft', () => {
  test('go to the spec and back, and pass the schema', () => {
    const d = new RunDraft(noHub());
    d.sampling = { ...d.sampling, logprobs: true, pTrue: { samples: 7, brainstorm: true } };
    const spec = d.draftSpec();
    expect(spec.sampling).toMatchObject({ logprobs: true, pTrue: { samples: 7, brainstorm: true } });
    expect(draftSpecSchema.safeParse(spec).success).toBe(true);
    const back = new RunDraft(noHub());
    back.applySpec(spec);
    expect(back.draftSpec().sampling).toEqual(spec.sampling);
  });

  test('absent unless chosen; a p(True) of no replies is refused by the schema', () => {
    const d = new RunDraft(noHub());
    expect(d.draftSpec().sampling).not.toHaveProperty('pTrue');
    expect(d.draftSpec().sampling).not.toHaveProperty('logprobs');
    const bad = { ...d.draftSpec(), sampling: { ...d.draftSpec().sampling, pTrue: { samples: 0, brainstorm: false } } };
    expect(draftSpecSchema.safeParse(bad).success).toBe(false);
  });
});
