/**
 * The run's sample stage picks the in-browser provider for an 'in-browser' model: its replies come
 * from the generator the worker supplies (the generation worker in the browser), its load is passed
 * to the run, and without a generator the stage says plainly that the model cannot run there;
 * with the real tiny model, a pause keeps what was generated and a resumed run asks for the rest.
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { createLocalGenerator } from '../../../src/providers/in-browser/local-generator';
import { TINY_TOPICS } from '../../../scripts/tiny-causal-lm-table';
import { realStages } from '../../../src/workers/real-stages';
import { MemorySampleCache } from '../../../src/model/sample-cache';
import type { ReplyGenerator } from '../../../src/providers/in-browser/in-browser-provider';
import type { ModelLoadProgress } from '../../../src/model/run-spec';
import type { SampleStageArgs } from '../../../src/pipeline/stage-ports';

const model = { kind: 'in-browser' as const, preset: 'in-browser', baseUrl: '', model: 'tiny-causal-lm' };

function args(extra: Partial<SampleStageArgs> = {}): SampleStageArgs {
  return {
    dataset: { name: 'd', source: 'test', questions: [{ id: 'q1', question: 'Which?', answer: 'Canberra' }] },
    model,
    sampling: { n: 3, temperature: 1, maxTokens: 16, prompt: 'Q: {question}', concurrency: 8 },
    cache: new MemorySampleCache(),
    signal: new AbortController().signal,
    price: null,
    onCounters: () => {},
    onError: () => {},
    onNote: () => {},
    ...extra,
  } as SampleStageArgs;
}

test('an in-browser model samples through the generator, and its loading reaches the run', async () => {
  const asked: number[] = [];
  const loads: ModelLoadProgress[] = [];
  const generator: ReplyGenerator = {
    async generate(request) {
      asked.push(request.n);
      return { replies: Array.from({ length: request.n }, () => ({ text: 'Answer: Canberra\nConfidence: 90%', finishReason: 'stop' as const, tokens: 6 })), inputTokens: 9, outputTokens: 6 * request.n, ms: 1 };
    },
  };
  const stages = realStages({
    score: () => {
      throw new Error('not used');
    },
    generator: (id, onLoad) => {
      expect(id).toBe('tiny-causal-lm');
      onLoad?.({ model: id, role: 'generation', status: 'ready', files: [], device: 'wasm' });
      return generator;
    },
  });
  const r = await stages.sample(args({ onModelLoad: (s) => loads.push(s) }));
  expect(r.ok).toBe(true);
  if (!r.ok) return;
  expect(r.value.rows[0]).toMatchObject({ id: 'q1', model: 'in-browser/tiny-causal-lm', n_samples: 3, answer_extracted: ['Canberra', 'Canberra', 'Canberra'], confidence_verbalized: [0.9, 0.9, 0.9] });
  expect(asked).toEqual([3]);
  expect(loads.map((l) => l.role)).toEqual(['generation']);
});

test('without a generator the stage fails with a clear message, asking no HTTP provider', async () => {
  const stages = realStages({ score: () => { throw new Error('not used'); } });
  const r = await stages.sample(args());
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error.message).toMatch(/in-browser model cannot run here/);
});

test('with the real tiny model: a pause keeps what was generated, and the resumed run asks only for the rest', async () => {
  const generator = createLocalGenerator({ model: 'tiny-causal-lm', localModelPath: path.resolve('public/models') + path.sep, allowRemoteModels: false }, undefined, { seed: 5 });
  const asked: number[] = [];
  const counting: ReplyGenerator = { generate: (r, s) => (asked.push(r.n), generator.generate(r, s)), notes: () => generator.notes!() };
  const stages = realStages({ score: () => { throw new Error('not used'); }, generator: () => counting });
  const cache = new MemorySampleCache();
  const questions = TINY_TOPICS.slice(1).map((t) => ({ id: t.questionId, question: t.question, answer: t.gold }));
  const base = args({ cache, dataset: { name: 'd', source: 'test', questions }, sampling: { n: 20, temperature: 1, maxTokens: 16, prompt: 'Question: {question}\nAnswer: <x>\nConfidence: <0-100>%', concurrency: 8 } });
  const pause = new AbortController();
  const paused = await stages.sample({ ...base, signal: pause.signal, onCounters: (c) => { if (c.samples.done >= 16) pause.abort('pause'); } });
  expect(paused.ok).toBe(false);
  const first = asked.length;
  expect(first).toBeGreaterThanOrEqual(1);
  expect(first).toBeLessThan(8);
  const resumed = await stages.sample({ ...base, signal: new AbortController().signal });
  expect(resumed.ok).toBe(true);
  if (!resumed.ok) return;
  // 4 questions × 20 samples = 8 batches (16 + 4 each) over both executions, none asked twice.
  expect(asked.reduce((s, n) => s + n, 0)).toBe(80);
  expect(resumed.value.rows.map((r) => r.n_samples)).toEqual([20, 20, 20, 20]);
  for (const [i, row] of resumed.value.rows.entries()) for (const a of row.answer_extracted) expect(TINY_TOPICS[i + 1].answers.map((x) => x.token.trim())).toContain(a);
  await generator.dispose();
});
