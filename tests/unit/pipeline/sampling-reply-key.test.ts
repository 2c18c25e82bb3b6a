/**
 * A server that writes the key it was sent into a reply's text: the provider removes it, in every
 * form the one scrubber knows, before the sampling stage stores the reply, and passes every other
 * reply on exactly as it came (key-like words and URLs that are not the key included).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import { readSamples, runSampling } from '../../../src/pipeline/sampling.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import { MockProviderServer } from '../../mock/provider-server.ts';

const KEY = 'sk-proj-ReplyEchoKey0123456789abcdef';
const ECHO = `Answer: Paris (your key is ${KEY}, or ${encodeURIComponent(KEY)}; its tail ${KEY.slice(10)})\nConfidence: 80%`;
const PLAIN = 'Answer: sk-not-the-key-1234 at https://user:pass@example.org\nConfidence: 40%';
const QUESTIONS = [
  { id: 'echo', question: 'Which key did you get?', answer: 'Paris' },
  { id: 'plain', question: 'Which words look like keys?', answer: 'none' },
];

let mock: MockProviderServer;
afterEach(() => mock.close());

describe('replies that hold the key', () => {
  it('are stored with the key removed; replies that do not hold it are stored unchanged', async () => {
    mock = await MockProviderServer.start({ apiKey: KEY }, { responder: (req) => (req.user.includes('Which key') ? ECHO : PLAIN) });
    const provider = createProvider({ kind: 'openai', preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', apiKey: KEY });
    const cache = new MemorySampleCache();
    const settings = { temperature: 1, topP: 1, maxTokens: 100 };
    const result = await runSampling({ questions: QUESTIONS, provider, settings, n: 2, cache });
    expect(result.state).toBe('done');
    const [echo, plain] = await readSamples({ questions: QUESTIONS, provider, settings, n: 2, cache });
    for (const s of echo) {
      expect(s!.raw).toBe('Answer: Paris (your key is [key], or [key]; its tail [key])\nConfidence: 80%');
      expect(s!.answer).toBe('Paris (your key is [key], or [key]; its tail [key])');
    }
    for (const s of plain) expect(s!.raw).toBe(PLAIN);
    expect(JSON.stringify([...cache.map.values()])).not.toContain(KEY.slice(10, 18));
  });
});
