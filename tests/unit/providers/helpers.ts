/** Shared setup for provider tests: a mock server and a provider whose sleeps are recorded, not waited. */
import { createProvider } from '../../../src/providers/create-provider.ts';
import type { ProviderConfig, ProviderKind } from '../../../src/model/provider.ts';
import { type MockConfig, MockProviderServer } from '../../mock/provider-server.ts';

export const KEY = 'mock-key';
export const QUESTION = 'What is the capital of France?';

export async function startMock(config: MockConfig = {}): Promise<MockProviderServer> {
  return MockProviderServer.start({
    apiKey: KEY,
    questions: [{ match: QUESTION, answers: { Paris: 3, Lyon: 1 }, confidence: 90 }],
    ...config,
  });
}

export function providerFor(
  mock: MockProviderServer,
  kind: ProviderKind,
  overrides: Partial<ProviderConfig> = {},
  policy: Record<string, number> = {},
) {
  const sleeps: number[] = [];
  const defaults: Record<Exclude<ProviderKind, 'in-browser'>, { preset: string; model: string }> = {
    openai: { preset: 'openai', model: 'gpt-4o-mini' },
    anthropic: { preset: 'anthropic', model: 'claude-sonnet-4-5' },
    gemini: { preset: 'gemini', model: 'gemini-2.5-flash' },
  };
  const provider = createProvider(
    { kind, ...defaults[kind as Exclude<ProviderKind, 'in-browser'>], baseUrl: `${mock.url}/v1`, apiKey: KEY, ...overrides },
    {
      http: {
        sleep: async (ms: number, signal?: AbortSignal) => {
          sleeps.push(ms);
          if (signal?.aborted) throw new Error('aborted');
        },
        random: () => 0.5,
      },
      policy: { baseDelayMs: 100, ...policy },
    },
  );
  return { provider, sleeps };
}

export const ask = (n: number, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user' as const, content: `Question: ${QUESTION}` }],
  settings: { temperature: 1, topP: 1, maxTokens: 200 },
  n,
  ...extra,
});
