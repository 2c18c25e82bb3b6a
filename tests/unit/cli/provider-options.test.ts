import { describe, expect, test } from 'vitest';
import { providerFromArgs } from '../../../cli/provider-options';

describe('providerFromArgs', () => {
  test('--base-url with credentials is refused, naming the option and masking the password', () => {
    const args = { provider: 'vllm', model: 'judge', 'base-url': 'http://bob:t0ps3cret@gpu:8000/v1' };
    expect(() => providerFromArgs(args, {}, 1)).toThrow(/^--base-url contains a user name and password \(http:\/\/\*\*\*@gpu:8000\/v1\)\./);
    try {
      providerFromArgs(args, {}, 1);
    } catch (e) {
      expect((e as Error).message).not.toContain('t0ps3cret');
    }
  });

  test('a plain --base-url, or the preset\'s own, makes a provider', () => {
    expect(providerFromArgs({ provider: 'vllm', model: 'judge', 'base-url': 'http://gpu:8000/v1' }, {}, 1).config.baseUrl).toBe('http://gpu:8000/v1');
    expect(() => providerFromArgs({ provider: 'vllm', model: 'judge', 'base-url': 'gpu:8000' }, {}, 1)).toThrow(/^--base-url (is not a valid URL|must start with http)/);
  });
});
