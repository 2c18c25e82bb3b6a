/**
 * The app's sample stage (the runner's, sample-stage.ts over sampling.ts) against a server that
 * cannot be reached: the stage fails after about one request's retries with an error that says
 * which server, why, and that a resume carries on, instead of failing each question on its own.
 * Real providers and fetch against a closed loopback port; the retries' sleeps are not waited.
 */
import { describe, expect, it } from 'vitest';
import { closedPort } from '../../mock/closed-port.ts';
import { sampleWith } from '../../../src/pipeline/sample-stage.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import { DEFAULT_POLICY, abortableSleep } from '../../../src/providers/http.ts';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import type { ProviderConfig } from '../../../src/model/provider.ts';
import type { StageError } from '../../../src/model/rows.ts';

describe('the app sample stage against a server that cannot be reached', () => {
  it('stops the whole run after the first request and its retries, whatever the number of questions, and says to resume', async () => {
    const port = await closedPort();
    let attempts = 0;
    const make = (config: ProviderConfig) =>
      createProvider(config, {
        http: {
          fetch: (input, init) => {
            attempts++;
            return fetch(input, init);
          },
          sleep: (_ms, signal) => abortableSleep(0, signal),
        },
      });
    const questions = Array.from({ length: 500 }, (_, i) => ({ id: `q${i}`, question: `Question ${i}?`, answer: 'x' }));
    const errors: StageError[] = [];
    const concurrency = 4;
    const result = await sampleWith(make, {
      dataset: { name: 'd', source: 'test', questions },
      model: { kind: 'openai', preset: 'custom', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: 'sk-app-unreachable-0123456789' },
      sampling: { n: 3, temperature: 1, maxTokens: 50, prompt: 'Q: {question}', concurrency },
      cache: new MemorySampleCache(),
      signal: new AbortController().signal,
      price: null,
      onCounters: () => {},
      onError: (e) => errors.push(e),
      onNote: () => {},
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ kind: 'unreachable', retryable: true });
    expect(result.error.message).toMatch(new RegExp(`^The server at 127\\.0\\.0\\.1:${port} cannot be reached \\(connection refused\\)`));
    expect(result.error.message).toMatch(/The samples so far are kept: press Resume once the server can be reached\.$/);
    // The requests in flight when the first gave up, each with its retries; not 500 questions × 3 tries × 7 attempts.
    expect(attempts).toBeLessThanOrEqual(concurrency * (DEFAULT_POLICY.maxRetries + 1));
    // What the run page lists: the refused attempts, each with its cause, never the key.
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => /ECONNREFUSED/.test(e.message) || e.kind === 'aborted')).toBe(true);
    expect(JSON.stringify(errors)).not.toContain('sk-app-unreachable');
  });
});
