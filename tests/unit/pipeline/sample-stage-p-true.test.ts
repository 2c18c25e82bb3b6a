/**
 * The app's sample stage with p(True) chosen (sampling.pTrue), against the loopback mock: each
 * row gets p_true and how it was read, the requests are counted with the samples', a note says
 * how many were read which way, and a second run over the same cache sends nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleWith } from '../../../src/pipeline/sample-stage.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import type { ProgressCounters } from '../../../src/model/run-spec.ts';
import { MockProviderServer, type ParsedRequest } from '../../mock/provider-server.ts';

const KEY = 'sk-app-ptrue-0123456789';
let mock: MockProviderServer;
let verdicts = 0;

// Verdicts without logprobs (a Groq-like model): True, True, False, repeating. Samples carry
// token logprobs (sent only where asked): −0.5 and −0.25.
function responder(req: ParsedRequest) {
  if (!req.user.includes('Is the possible answer')) return { text: 'Answer: Paris\nConfidence: 80%', logprobs: [{ token: 'Answer: ', logprob: -0.5 }, { token: 'Paris', logprob: -0.25 }] };
  return verdicts++ % 3 === 2 ? 'False' : 'True';
}

beforeEach(async () => {
  verdicts = 0;
  mock = await MockProviderServer.start({ apiKey: KEY, questions: [{ match: 'capital of France', id: 'fr', answers: { Paris: 3, Lyon: 1 }, confidence: 80 }] }, { responder });
});
afterEach(() => mock.close());

function stage(cache: MemorySampleCache, notes: string[], counters: ProgressCounters[]) {
  return sampleWith(createProvider, {
    dataset: { name: 'd', source: 'test', questions: [{ id: 'fr', question: 'What is the capital of France?', answer: 'Paris' }] },
    model: { kind: 'openai', preset: 'groq', baseUrl: `${mock.url}/v1`, model: 'm', apiKey: KEY },
    sampling: { n: 4, temperature: 1, maxTokens: 50, prompt: 'Q: {question}', concurrency: 2, pTrue: { samples: 6, brainstorm: true } },
    cache,
    signal: new AbortController().signal,
    price: null,
    onCounters: (c) => counters.push(c),
    onError: () => {},
    onNote: (n) => notes.push(n),
  });
}

describe('the app sample stage with p(True)', () => {
  it('writes p_true into the rows from sampled verdicts, counts its requests and notes how it was read; a rerun sends nothing', async () => {
    const cache = new MemorySampleCache();
    const notes: string[] = [];
    const counters: ProgressCounters[] = [];
    const result = await stage(cache, notes, counters);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [row] = result.value.rows;
    // Groq returns no logprobs and one reply per request: six verdicts, four of them True.
    expect(row.p_true).toBe(4 / 6);
    expect(row.p_true_method).toBe('sampled');
    expect(notes.join('\n')).toMatch(/p\(True\): 1 from sampled verdicts; 6 request\(s\), 0 replies from the cache/);
    // The last counters hold the sampling's four requests and p(True)'s six.
    expect(counters.at(-1)!.requests.done).toBe(10);

    const sent = mock.stats().requests;
    const again = await stage(cache, [], []);
    expect(again.ok && again.value.rows[0]).toMatchObject({ p_true: 4 / 6, p_true_method: 'sampled' });
    expect(mock.stats().requests).toBe(sent);
  });

  it('keeps each sample’s sequence log-probability in the rows where logprobs are asked', async () => {
    const result = await sampleWith(createProvider, {
      dataset: { name: 'd', source: 'test', questions: [{ id: 'fr', question: 'What is the capital of France?', answer: 'Paris' }] },
      model: { kind: 'openai', preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', apiKey: KEY },
      sampling: { n: 3, temperature: 1, maxTokens: 50, prompt: 'Q: {question}', concurrency: 1, logprobs: true },
      cache: new MemorySampleCache(),
      signal: new AbortController().signal,
      price: null,
      onCounters: () => {},
      onError: () => {},
      onNote: () => {},
    });
    expect(result.ok && result.value.rows[0].sequence_logprobs).toEqual([-0.75, -0.75, -0.75]);
  });
});
