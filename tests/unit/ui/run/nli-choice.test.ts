import { describe, expect, test } from 'vitest';
import { DEFAULT_NLI_MODEL, TINY_NLI_MODEL } from '../../../../src/clustering/nli-models';
import { nliDownloadText, nliProblems } from '../../../../src/ui/run/nli-choice';
import { RunDraft } from '../../../../src/ui/run/draft.svelte';
import { restoreDraft, saveDraft } from '../../../../src/ui/run/draft-storage';

const noHub = async () => {
  throw new Error('the hub loader is not used here');
};

describe('the NLI model choice (entailment clustering)', () => {
  test('the default model is downloaded, so step 3 has nothing to refuse; the spec names the model', () => {
    const draft = new RunDraft(noHub);
    draft.clusteringMethod = 'entailment';
    expect(draft.clusterings.entailment.model).toBe(DEFAULT_NLI_MODEL);
    expect(draft.problems(2)).toEqual([]);
    expect(draft.toSpec().clustering).toEqual({ method: 'entailment', model: DEFAULT_NLI_MODEL, allowRemote: true });
  });

  test('"use shipped models only" with a hub model is refused before Start; tiny-nli is shipped', () => {
    const draft = new RunDraft(noHub);
    draft.clusteringMethod = 'entailment';
    draft.clusterings.entailment.allowRemote = false;
    expect(draft.problems(2)).toEqual([expect.stringMatching(/The NLI model "Xenova\/nli-deberta-v3-xsmall" is not shipped with this app \(shipped: tiny-nli\)/)]);
    draft.clusterings.entailment.model = ` ${TINY_NLI_MODEL} `;
    expect(draft.problems(2)).toEqual([]);
    expect(draft.toSpec().clustering).toEqual({ method: 'entailment', model: TINY_NLI_MODEL, allowRemote: false });
    draft.clusterings.entailment.model = '  ';
    expect(nliProblems(draft.clusterings.entailment.model, { allowDownload: true })).toEqual([`Enter an NLI model id (e.g. ${DEFAULT_NLI_MODEL}).`]);
  });

  test('what is downloaded, in one sentence', () => {
    expect(nliDownloadText(TINY_NLI_MODEL, { allowDownload: true })).toBe('"tiny-nli" is shipped with this app: nothing is downloaded.');
    expect(nliDownloadText(DEFAULT_NLI_MODEL, { allowDownload: true })).toMatch(/downloaded from the Hugging Face hub on first use, of about 96 MB \(approximate\)/);
    expect(nliDownloadText('someone/other-nli', { allowDownload: true })).toMatch(/of a size this app does not know/);
  });

  test('the draft keeps the method and the model over a reload', () => {
    const draft = new RunDraft(noHub);
    draft.clusteringMethod = 'entailment';
    draft.clusterings.entailment.model = TINY_NLI_MODEL;
    draft.clusterings.entailment.allowRemote = false;
    const items = new Map<string, string>();
    const storage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) } as unknown as Storage;
    saveDraft(draft, storage);
    const again = new RunDraft(noHub);
    expect(restoreDraft(again, storage).found).toBe(true);
    expect([again.clusteringMethod, again.clusterings.entailment.model, again.clusterings.entailment.allowRemote]).toEqual(['entailment', TINY_NLI_MODEL, false]);
  });
});
