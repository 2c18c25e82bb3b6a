import { describe, expect, test } from 'vitest';
import { askReplies, replyKeyBase, replyToSample } from '../../../src/multiple-choice/reply-cache';
import { toMcQuestion, type McQuestion } from '../../../src/multiple-choice/prompt';
import { keyAt, MemorySampleCache } from '../../../src/model/sample-cache';
import type { ChatProvider, CompletionRequest } from '../../../src/model/provider';

function question(): McQuestion {
  const q = toMcQuestion({ id: 'q1', question: 'Colour of alpha?', answer: 'B', options: ['red', 'green', 'blue'] });
  if (!q.ok) throw new Error(q.error.message);
  return q.value;
}

/** A provider that numbers its replies and returns at most `cap` per request. */
function numbering(cap = Infinity) {
  const asked: number[] = [];
  let next = 0;
  const provider: ChatProvider = {
    config: { kind: 'openai', preset: 'vllm', baseUrl: 'http://mock/v1', model: 'm' },
    async complete(request: CompletionRequest) {
      asked.push(request.n);
      const n = Math.min(request.n, cap);
      const replies = Array.from({ length: n }, () => ({ text: `{"answer": "A", "probability": ${next++}}`, finishReason: 'stop', logprobs: [{ token: 'A', logprob: -0.5 }] }));
      return { replies, usage: { inputTokens: 1, outputTokens: 1 }, ms: 1, effective: { n } };
    },
  };
  return { provider, asked };
}

const settings = { temperature: 1, maxTokens: 50 };

describe('multiple-choice replies in the sample cache', () => {
  test('stored at the missing indices in order; a repeat asks only for what the provider did not return', async () => {
    const samples = new MemorySampleCache();
    let cached = 0;
    const cache = { samples, onCached: () => cached++ };
    const { provider, asked } = numbering(3);
    const request = { question: question(), purpose: 'sem-ece-sample' as const, indices: [0, 1, 2, 3, 4], settings };
    const first = await askReplies(provider, cache, request);
    expect(first.replies.map((r) => r.text)).toEqual([0, 1, 2].map((p) => `{"answer": "A", "probability": ${p}}`));
    expect(asked).toEqual([5]);

    const second = await askReplies(provider, cache, request);
    // Indices 3 and 4 were missing: one request for 2, the stored three read back in their places.
    expect(asked).toEqual([5, 2]);
    expect(second.replies.map((r) => r.text)).toEqual([0, 1, 2, 3, 4].map((p) => `{"answer": "A", "probability": ${p}}`));
    expect(cached).toBe(0);

    const third = await askReplies(provider, cache, request);
    expect(asked).toEqual([5, 2]);
    expect(third.completion).toBeNull();
    expect(third.replies).toEqual(second.replies);
    expect(cached).toBe(1);
  });

  test('the key depends on the purpose, the settings and the model, never on the key', async () => {
    const q = question();
    const model = { preset: 'vllm', baseUrl: 'http://mock/v1', model: 'm' };
    const base = await replyKeyBase(model, q, 'stated-probability', settings);
    expect(await replyKeyBase({ ...model, baseUrl: 'http://mock/v1/' }, q, 'stated-probability', settings)).toBe(base);
    expect(await replyKeyBase({ ...model, apiKey: 'sk-1' } as typeof model, q, 'stated-probability', settings)).toBe(base);
    expect(await replyKeyBase(model, q, 'sem-ece-sample', settings)).not.toBe(base);
    expect(await replyKeyBase(model, q, 'stated-probability', { ...settings, temperature: 0.5 })).not.toBe(base);
    expect(await replyKeyBase({ ...model, model: 'other' }, q, 'stated-probability', settings)).not.toBe(base);
  });

  test('a failed request is not stored, and the replies already stored still come back', async () => {
    const samples = new MemorySampleCache();
    const q = question();
    const base = await replyKeyBase({ preset: 'vllm', baseUrl: 'http://mock/v1', model: 'm' }, q, 'sem-ece-sample', settings);
    await samples.put([{ key: keyAt(base, 0), sample: replyToSample({ text: '{"answer": "B", "probability": 70}', finishReason: 'stop' }, 3) }]);
    const failing: ChatProvider = {
      config: { kind: 'openai', preset: 'vllm', baseUrl: 'http://mock/v1', model: 'm' },
      complete: () => Promise.reject({ kind: 'server', message: 'down' }),
    };
    const got = await askReplies(failing, { samples }, { question: q, purpose: 'sem-ece-sample', indices: [0, 1], settings });
    expect(got.error).toEqual({ kind: 'server', message: 'down' });
    expect(got.replies.map((r) => r.text)).toEqual(['{"answer": "B", "probability": 70}']);
    expect(samples.map.size).toBe(1);
  });

  test('a stored reply keeps its option letter, stated probability and logprobs', () => {
    expect(replyToSample({ text: '{"answer": "C", "probability": 40}', finishReason: 'stop', logprobs: [{ token: 'C', logprob: -1 }] }, 3)).toEqual({
      raw: '{"answer": "C", "probability": 40}',
      answer: 'C',
      answerMethod: 'option-letter',
      confidence: 0.4,
      confidenceMethod: 'stated-probability',
      finishReason: 'stop',
      logprobs: [{ token: 'C', logprob: -1 }],
    });
    expect(replyToSample({ text: 'no idea', finishReason: null }, 3)).toMatchObject({ answer: '', answerMethod: 'empty', confidence: null, confidenceMethod: 'missing' });
  });
});
