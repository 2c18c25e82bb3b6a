/** The clustering stage's cache key names the entailment clusterer's NLI model and rule. */
import { describe, expect, test } from 'vitest';
import { cachesClustering, cachesGrading, clusteringKey, clustererIdentity } from '../../../src/pipeline/stage-cache-keys';
import { ENTAILMENT_RULE_VERSION } from '../../../src/clustering/entailment';

const question = { id: 'q1', question: 'What is the capital of France?', answer: 'Paris' };
const answers = ['Paris', 'Lyon', 'Paris, France'];

describe('clustering cache keys', () => {
  test('entailment: the NLI model is part of the key; the download setting is not', async () => {
    expect(clustererIdentity({ method: 'entailment', model: 'tiny-nli' })).toEqual({ method: 'entailment', model: 'tiny-nli', rule: ENTAILMENT_RULE_VERSION });
    const a = await clusteringKey(question, answers, { method: 'entailment', model: 'tiny-nli' });
    const b = await clusteringKey(question, answers, { method: 'entailment', model: 'Xenova/nli-deberta-v3-xsmall' });
    const c = await clusteringKey(question, answers, { method: 'entailment', model: 'tiny-nli', allowRemote: true });
    const d = await clusteringKey(question, answers, { method: 'embedding', model: 'tiny-nli', threshold: 0.85 });
    expect(a).not.toBe(b);
    expect(a).toBe(c);
    expect(a).not.toBe(d);
  });
});

describe('which methods the stage cache holds', () => {
  test('exact clustering and alias grading are recomputed (cheaper than their cache); the judge, embedding and entailment clusterers and the judge grader are cached', () => {
    const judge = { kind: 'openai' as const, preset: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'judge' };
    expect(cachesClustering({ method: 'exact' })).toBe(false);
    expect(cachesClustering({ method: 'judge', judge })).toBe(true);
    expect(cachesClustering({ method: 'embedding', model: 'm', threshold: 0.85 })).toBe(true);
    expect(cachesClustering({ method: 'entailment', model: 'tiny-nli' })).toBe(true);
    expect(cachesGrading({ method: 'alias' })).toBe(false);
    expect(cachesGrading({ method: 'judge', judge })).toBe(true);
  });
});
