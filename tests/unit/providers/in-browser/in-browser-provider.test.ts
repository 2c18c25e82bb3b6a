/**
 * The in-browser provider's request → samples mapping, over a scripted generator (no model):
 * a request's n replies are one batch of at most 16, requests go one at a time, a model that
 * cannot load stops the run, a cancelled request is aborted, and the sampling stage stores and
 * resumes its samples under the same cache keys as any provider.
 */
import { describe, expect, it } from 'vitest';
import { createInBrowserProvider, inBrowserSettings, type ReplyGenerator } from '../../../../src/providers/in-browser/in-browser-provider';
import type { GenerateRequest, GenerateResult } from '../../../../src/providers/in-browser/generate';
import { createProvider, getPreset } from '../../../../src/providers/create-provider';
import { ProviderError, stopsRun } from '../../../../src/providers/errors';
import { MemorySampleCache } from '../../../../src/model/sample-cache';
import { runSampling } from '../../../../src/pipeline/sampling';
import type { ProviderConfig } from '../../../../src/model/provider';

const CONFIG: ProviderConfig = { kind: 'in-browser', preset: 'in-browser', baseUrl: '', model: 'tiny-causal-lm' };
const SETTINGS = { temperature: 0.7, topP: 0.9, maxTokens: 32 };

/** Replies "Answer: <question's first word> <row>\nConfidence: 80%", recording each request and how many ran at once. */
function scripted(fail?: Error) {
  const seen: GenerateRequest[] = [];
  let running = 0;
  let most = 0;
  const generator: ReplyGenerator = {
    async generate(request, signal): Promise<GenerateResult> {
      running++;
      most = Math.max(most, running);
      seen.push(request);
      await new Promise((r) => setTimeout(r, 2));
      running--;
      if (fail) throw fail;
      if (signal?.aborted) throw new DOMException('cancelled', 'AbortError');
      const word = request.messages[0].content.match(/Question: (\w+)/)?.[1] ?? '?';
      return {
        replies: Array.from({ length: request.n }, (_, i) => ({ text: `Answer: ${word} ${i}\nConfidence: 80%`, finishReason: 'stop' as const, tokens: 5 })),
        inputTokens: 20,
        outputTokens: 5 * request.n,
        ms: 3,
      };
    },
    notes: () => ['ran on WASM'],
  };
  return { generator, seen, most: () => most };
}

describe('the in-browser provider', () => {
  it('is a preset with no key and no address, and the HTTP factory refuses it clearly', () => {
    expect(getPreset('in-browser')).toMatchObject({ kind: 'in-browser', needsKey: false, baseUrl: '', label: 'In this browser (no key)' });
    expect(() => createProvider(CONFIG)).toThrow(/in-browser model "tiny-causal-lm" can sample answers only/);
  });

  it('maps a request to one batch: n rows, the settings the model uses, the usage it reports', async () => {
    const s = scripted();
    const p = createInBrowserProvider(CONFIG, s.generator);
    const events: string[] = [];
    const c = await p.completeOnce({ messages: [{ role: 'user', content: 'Question: Which?' }], settings: SETTINGS, n: 5, onEvent: (e) => events.push(e.type) });
    expect(s.seen).toHaveLength(1);
    expect(s.seen[0]).toMatchObject({ n: 5, temperature: 0.7, topP: 0.9, maxTokens: 32 });
    expect(c.replies.map((r) => r.text)).toEqual([0, 1, 2, 3, 4].map((i) => `Answer: Which ${i}\nConfidence: 80%`));
    expect(c.usage).toEqual({ inputTokens: 20, outputTokens: 25 });
    expect(c.effective).toEqual({ n: 5, temperature: 0.7, topP: 0.9, maxTokens: 32 });
    expect(events).toEqual(['done']);
    expect(p.config).toMatchObject({ preset: 'in-browser', baseUrl: '', concurrency: 1 });
    expect(p.notes()).toEqual(['ran on WASM']);
  });

  it('asks at most 16 rows per batch, and complete() makes up the rest', async () => {
    const s = scripted();
    const p = createInBrowserProvider(CONFIG, s.generator);
    expect(p.maxN(SETTINGS)).toBe(16);
    const c = await p.complete({ messages: [{ role: 'user', content: 'Question: x' }], settings: SETTINGS, n: 40 });
    expect(c.replies).toHaveLength(40);
    expect(s.seen.map((r) => r.n)).toEqual([16, 16, 8]);
  });

  it('runs one request at a time, however many are sent at once', async () => {
    const s = scripted();
    const p = createInBrowserProvider(CONFIG, s.generator);
    await Promise.all(Array.from({ length: 6 }, () => p.completeOnce({ messages: [{ role: 'user', content: 'Question: x' }], settings: SETTINGS, n: 2 })));
    expect(s.seen).toHaveLength(6);
    expect(s.most()).toBe(1);
  });

  it('temperature 0 is greedy (no top_p), and top_p 1 is not sent', () => {
    expect(inBrowserSettings({ temperature: 0, topP: 0.5, maxTokens: 8 }, 3)).toEqual({ n: 3, temperature: 0, maxTokens: 8 });
    expect(inBrowserSettings({ temperature: 1, topP: 1, maxTokens: 8 }, 3)).toEqual({ n: 3, temperature: 1, maxTokens: 8 });
  });

  it('a model that cannot load is a run-stopping error with the loader’s words; a failed batch may be retried', async () => {
    const load = new Error('could not load "x" from /models/x: its files were not found');
    load.name = 'ModelLoadError';
    const p = createInBrowserProvider(CONFIG, scripted(load).generator);
    const e = await p.completeOnce({ messages: [{ role: 'user', content: 'q' }], settings: SETTINGS, n: 1 }).catch((x) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.kind).toBe('not-found');
    expect(stopsRun(e)).toBe(true);
    expect(e.message).toMatch(/could not load "x" from \/models\/x/);
    const other = await createInBrowserProvider(CONFIG, scripted(new Error('out of memory')).generator).completeOnce({ messages: [{ role: 'user', content: 'q' }], settings: SETTINGS, n: 1 }).catch((x) => x);
    expect(other).toMatchObject({ kind: 'server', retryable: true });
    expect(other.message).toMatch(/out of memory/);
  });

  it('a request cancelled before it starts never reaches the model', async () => {
    const s = scripted();
    const p = createInBrowserProvider(CONFIG, s.generator);
    const controller = new AbortController();
    controller.abort();
    const e = await p.completeOnce({ messages: [{ role: 'user', content: 'q' }], settings: SETTINGS, n: 1, signal: controller.signal }).catch((x) => x);
    expect(e).toMatchObject({ kind: 'aborted' });
    expect(s.seen).toHaveLength(0);
  });

  it('through the sampling stage: n samples per question stored by key, and a second run asks for nothing', async () => {
    const s = scripted();
    const cache = new MemorySampleCache();
    const questions = [
      { id: 'a', question: 'Alpha?', answer: 'x' },
      { id: 'b', question: 'Beta?', answer: 'y' },
    ];
    const run = () => runSampling({ questions, provider: createInBrowserProvider(CONFIG, s.generator), settings: SETTINGS, n: 20, cache });
    const first = await run();
    expect(first.state).toBe('done');
    expect(first.progress.samples).toMatchObject({ done: 40, cached: 0 });
    // 20 samples: a batch of 16 and one of 4, per question.
    expect(s.seen.map((r) => r.n)).toEqual([16, 4, 16, 4]);
    expect(first.effective).toEqual({ n: 16, temperature: 0.7, topP: 0.9, maxTokens: 32 });
    const second = await run();
    expect(second.progress.samples).toMatchObject({ done: 40, cached: 40 });
    expect(s.seen).toHaveLength(4);
  });
});
