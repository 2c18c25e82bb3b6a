/**
 * The NLI path end to end in Node: the repo's own tiny classifier, loaded through
 * Transformers.js's real loading code (config.json, tokenizer.json, onnx/model_quantized.onnx)
 * with remote models switched off, pairs tokenized by its tokenizer with text_pair, run by
 * onnxruntime-node; its labels are the ones the script designed.
 */
import { readModelFile } from '../../../cli/model-files';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  classifyPairs, createTransformersDecider, decisionsAgree, loadPairClassifier, nliLabelsOf, pairLogits, PROBE_PAIRS, TINY_NLI_MODEL,
} from '../../../src/clustering/text-pair-classification';
import { createEntailmentClusterer } from '../../../src/clustering/entailment';
import { MemoryEntailmentCache } from '../../mock/memory-entailment-cache';
import type { ModelProgress } from '../../../src/model/progress';

const localModelPath = path.resolve('public/models') + path.sep;
const source = { model: TINY_NLI_MODEL, localModelPath, allowRemoteModels: false, readFile: readModelFile } as const;
const Q = 'What is the capital of France?';
const pair = (a: string, b: string) => ({ premise: `${Q} ${a}`, hypothesis: `${Q} ${b}` });

describe('tiny NLI model through Transformers.js (Node)', () => {
  test('loads lazily once with progress; a text pair gets the designed label', async () => {
    const progress: ModelProgress[] = [];
    const decider = createTransformersDecider(source, (p) => progress.push(p));
    expect(progress).toEqual([]);
    const [first, second] = await Promise.all([decider.ready(), decider.ready()]);
    expect(first).toBe(second);
    expect(progress.some((p) => p.status === 'ready')).toBe(true);
    expect(progress.some((p) => p.file?.includes('model_quantized.onnx'))).toBe(true);

    const labels = await decider.decide([
      pair('Paris', 'Paris, France'), // France is in the question: nothing added
      pair('Paris, France', 'Paris'),
      pair('Paris', 'Lyon'), // each side has a city the other lacks
      pair('Paris', 'Paris in 1900'), // the hypothesis adds a year
      pair('Paris in 1900', 'Paris'),
      { premise: 'two', hypothesis: 'a pair' }, // one synonym group
      { premise: 'big dog', hypothesis: 'large puppy' },
    ]);
    expect(labels).toEqual(['entailment', 'entailment', 'contradiction', 'neutral', 'entailment', 'entailment', 'entailment']);
  });

  test('the pair is tokenized as a pair: premise and hypothesis swap roles, so the direction matters', async () => {
    const classifier = await loadPairClassifier(source);
    const [forward, backward] = await pairLogits(classifier, [{ premise: 'Paris', hypothesis: 'Paris 1900' }, { premise: 'Paris 1900', hypothesis: 'Paris' }]);
    expect(Array.from(forward)).toEqual([-1, 0.5, -2]);
    expect(Array.from(backward)).toEqual([-1, 0.5, 2]);
    // Padding in a batch changes nothing: one pair alone gives the same logits as in a batch.
    const [alone] = await pairLogits(classifier, [{ premise: 'Paris 1900', hypothesis: 'Paris' }]);
    expect(Array.from(alone)).toEqual(Array.from(backward));
  });

  test('q8 and fp32 files agree (the check used before trusting a second backend)', async () => {
    const q8 = await loadPairClassifier({ ...source, dtype: 'q8' });
    const fp32 = await loadPairClassifier({ ...source, dtype: 'fp32' });
    const a = await pairLogits(q8, [...PROBE_PAIRS]);
    const b = await pairLogits(fp32, [...PROBE_PAIRS]);
    expect(decisionsAgree(a, b).agree).toBe(true);
    expect(decisionsAgree(a, [b[1], b[0], ...b.slice(2)]).agree).toBe(false);
    expect(decisionsAgree(a, b.slice(1)).agree).toBe(false);
    expect(await classifyPairs(fp32, TINY_NLI_MODEL, [...PROBE_PAIRS])).toEqual(['entailment', 'contradiction', 'entailment', 'entailment', 'entailment']); // weather and liking are in no group of the tiny model
  });

  test('labels are read by name, in any case and order; a model without entailment is refused', () => {
    expect(nliLabelsOf('m', { id2label: { 0: 'ENTAILMENT', 1: 'NEUTRAL', 2: 'CONTRADICTION' } })).toEqual(['entailment', 'neutral', 'contradiction']);
    expect(nliLabelsOf('m', { id2label: { 1: 'entailment', 0: 'contradiction', 2: 'neutral' } })).toEqual(['contradiction', 'entailment', 'neutral']);
    expect(nliLabelsOf('m', { id2label: { 0: 'entailment', 1: 'not_entailment' } })).toEqual(['entailment', 'neutral']);
    expect(() => nliLabelsOf('Xenova/sst2', { id2label: { 0: 'NEGATIVE', 1: 'POSITIVE' } })).toThrow(`"Xenova/sst2" is not an NLI model: its config.json labels (NEGATIVE, POSITIVE) name no 'entailment' class`);
  });

  test('entailment clustering on the tiny model: known classes; the cache answers a repeat', async () => {
    const cache = new MemoryEntailmentCache();
    let decided = 0;
    const clusterer = createEntailmentClusterer({ decider: createTransformersDecider(source), cache, onDecided: (n) => (decided += n) });
    const answers = ['Paris', 'Lyon', 'Paris, France', 'paris.', 'Lyon', 'Paris in 1900', 'Marseille'];
    const r = await clusterer.cluster(Q, answers);
    expect(r).toEqual({
      ok: true,
      value: [
        { label: 'Paris', members: [0, 2, 3] },
        { label: 'Lyon', members: [1, 4] },
        { label: 'Paris in 1900', members: [5] },
        { label: 'Marseille', members: [6] },
      ],
    });
    const asked = decided;
    expect(asked).toBeGreaterThan(0);
    expect(await clusterer.cluster(Q, answers)).toEqual(r);
    expect(decided).toBe(asked);
  });

  test('a model that is not there fails with its name and does not stay failed', async () => {
    const decider = createTransformersDecider({ ...source, model: 'no-such-nli' });
    await expect(decider.decide([{ premise: 'a', hypothesis: 'b' }])).rejects.toThrow(/no-such-nli/);
    await expect(decider.ready()).rejects.toThrow(/no-such-nli/);
  });
});
