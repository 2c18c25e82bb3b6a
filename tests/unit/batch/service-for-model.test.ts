import { describe, expect, test } from 'vitest';
import { batchServiceFor } from '../../../src/batch/service-for-model';
import { ProviderError } from '../../../src/providers/errors';

describe('batchServiceFor', () => {
  test('refuses a base URL with credentials before any request, like createProvider', () => {
    let requests = 0;
    const make = () =>
      batchServiceFor({ kind: 'openai', preset: 'openai', baseUrl: 'https://me:batchpass99@api.example.com/v1', model: 'gpt-4o-mini' }, 'sk-k-0123456789', {
        fetch: async () => (requests++, new Response('{}')),
      });
    expect(make).toThrow(ProviderError);
    expect(make).toThrow(/^The base URL for OpenAI contains a user name and password \(https:\/\/\*\*\*@api\.example\.com\/v1\)/);
    expect(requests).toBe(0);
  });

  test('a plain base URL gets its service', () => {
    expect(batchServiceFor({ kind: 'anthropic', preset: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude' }, 'k')).toBeDefined();
  });
});
