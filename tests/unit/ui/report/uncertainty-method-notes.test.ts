/** The Uncertainty methods tab says what the graph signals were computed over and how p(True) was read. */
import { describe, expect, test } from 'vitest';
import { uncertaintyMethodNotes } from '../../../../src/ui/report/uncertainty-methods-data';
import type { ModelReport } from '../../../../src/model/report';

const model = (over: Partial<ModelReport>, methods: (string | undefined)[] = []) =>
  ({ model: 'm', questions: methods.map((how) => (how ? { fields: { p_true_method: how } } : {})), ...over }) as unknown as ModelReport;

describe('uncertainty method notes', () => {
  test('the graph signals’ similarity, where one of them is scored', () => {
    expect(uncertaintyMethodNotes(model({ graphSimilarity: 'embedding-cosine' }), ['sem1', 'eigv'])).toEqual([expect.stringMatching(/^EigV, Deg and Ecc are computed over the embedding model's cosine similarities/)]);
    // Absent (an older report) or 'partition': the partition, said.
    expect(uncertaintyMethodNotes(model({}), ['degree'])[0]).toMatch(/over the clustering's partition/);
    expect(uncertaintyMethodNotes(model({ graphSimilarity: 'embedding-cosine' }), ['sem1', 'sem2'])).toEqual([]);
  });

  test('how many questions had p(True) read each way', () => {
    const m = model({}, ['logprobs', 'sampled', 'logprobs', undefined]);
    expect(uncertaintyMethodNotes(m, ['p_true'])).toEqual(["p(True) was read from the verdict token's log-probabilities on 2 questions and from the share of sampled \"True\" verdicts on 1 question."]);
    expect(uncertaintyMethodNotes(m, ['sem1'])).toEqual([]);
  });
});
