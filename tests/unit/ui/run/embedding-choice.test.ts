import { describe, expect, test } from 'vitest';
import { DEFAULT_EMBEDDING_MODEL, TINY_EMBEDDING_MODEL } from '../../../../src/clustering/embedding-models';
import { embeddingDownloadText, embeddingProblems } from '../../../../src/ui/run/embedding-choice';
import { RunDraft } from '../../../../src/ui/run/draft.svelte';

const noHub = async () => {
  throw new Error('the hub loader is not used here');
};

describe('the embedding model choice', () => {
  test('defaults that work: the default model is downloaded, so step 3 has nothing to refuse', () => {
    const draft = new RunDraft(noHub);
    draft.clusteringMethod = 'embedding';
    expect(draft.clusterings.embedding.model).toBe(DEFAULT_EMBEDDING_MODEL);
    expect(draft.clusterings.embedding.allowRemote).toBe(true);
    expect(draft.problems(2)).toEqual([]);
    expect(draft.toSpec().clustering).toMatchObject({ method: 'embedding', model: DEFAULT_EMBEDDING_MODEL, allowRemote: true });
  });

  test('"use shipped models only" with a model the app does not ship is refused before Start, with the reason', () => {
    const draft = new RunDraft(noHub);
    draft.clusteringMethod = 'embedding';
    draft.clusterings.embedding.allowRemote = false;
    const problems = draft.problems(2);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/"Xenova\/all-MiniLM-L6-v2" is not shipped with this app \(shipped: tiny-embedder\)/);
    expect(problems[0]).toMatch(/untick it to download the model from the Hugging Face hub, or choose a shipped model/);
    draft.clusterings.embedding.model = TINY_EMBEDDING_MODEL;
    expect(draft.problems(2)).toEqual([]);
    // Only the embedding method is concerned.
    draft.clusterings.embedding.model = DEFAULT_EMBEDDING_MODEL;
    draft.clusteringMethod = 'exact';
    expect(draft.problems(2)).toEqual([]);
  });

  test('the rule on its own: an empty id, a shipped model either way, a hub model with downloads', () => {
    expect(embeddingProblems('  ', { allowDownload: true })).toEqual(['Enter an embedding model id (e.g. Xenova/all-MiniLM-L6-v2).']);
    expect(embeddingProblems(` ${TINY_EMBEDDING_MODEL} `, { allowDownload: false })).toEqual([]);
    expect(embeddingProblems(TINY_EMBEDDING_MODEL, { allowDownload: true })).toEqual([]);
    expect(embeddingProblems('someone/any-model', { allowDownload: true })).toEqual([]);
    expect(embeddingProblems('someone/any-model', { allowDownload: false })).toHaveLength(1);
  });

  test('says what is downloaded before starting, the size labelled approximate', () => {
    expect(embeddingDownloadText(DEFAULT_EMBEDDING_MODEL, { allowDownload: true })).toBe(
      '"Xenova/all-MiniLM-L6-v2" is downloaded from the Hugging Face hub on first use, of about 23 MB (approximate), and kept by this browser for later runs.',
    );
    expect(embeddingDownloadText('someone/any-model', { allowDownload: true })).toMatch(/of a size this app does not know/);
    expect(embeddingDownloadText(TINY_EMBEDDING_MODEL, { allowDownload: true })).toBe('"tiny-embedder" is shipped with this app: nothing is downloaded.');
  });
});
