import { describe, expect, test } from 'vitest';
import { baseUrlProblem, redactedUrl, runBaseUrlProblem } from '../../../src/providers/base-url';
import { createProvider, ProviderError } from '../../../src/providers/create-provider';

describe('baseUrlProblem', () => {
  test('an http(s) URL without credentials is fine', () => {
    expect(baseUrlProblem('https://api.openai.com/v1')).toBeNull();
    expect(baseUrlProblem('http://127.0.0.1:11434/v1')).toBeNull();
  });

  test('credentials are refused with a message that masks them', () => {
    const message = baseUrlProblem('https://user:s3cr3t-pass@host.example/v1')!;
    expect(message).toBe(
      'The base URL contains a user name and password (https://***@host.example/v1). Remove them from the URL and put the key in the API key field ' +
        '(or its environment variable): browsers refuse such URLs, and a URL is stored with the run.',
    );
    expect(baseUrlProblem('https://only-a-user@host.example/v1')).toMatch(/^The base URL contains a user name \(https:\/\/\*\*\*@host\.example\/v1\)/);
    expect(baseUrlProblem('https://:just-a-password@host.example/v1')).not.toContain('just-a-password');
  });

  test('not a URL, or not http(s)', () => {
    expect(baseUrlProblem('')).toBe('The base URL is not a valid URL (""): expected e.g. https://api.openai.com/v1.');
    expect(baseUrlProblem('api.openai.com/v1', '--base-url')).toMatch(/^--base-url is not a valid URL/);
    expect(baseUrlProblem('ftp://host/v1')).toBe('The base URL must start with http:// or https:// (got ftp://…).');
    // An unparsable URL is shown without what sits before its @.
    expect(baseUrlProblem('http://us er:pa ss@ho st/v1')).not.toContain('pa ss');
  });

  test('redactedUrl masks only the credentials', () => {
    expect(redactedUrl('https://a:b@h/v1?x=1')).toBe('https://***@h/v1?x=1');
    expect(redactedUrl('https://h/v1')).toBe('https://h/v1');
  });

  test('a run names the model or judge whose URL is wrong', () => {
    const ok = { kind: 'openai' as const, preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'm' };
    const bad = { ...ok, preset: 'vllm', baseUrl: 'http://u:p@gpu:8000/v1', model: 'judge' };
    const base = { models: [ok], clustering: { method: 'exact' as const }, grading: { method: 'judge' as const, judge: bad } };
    expect(runBaseUrlProblem(base)).toMatch(/^The base URL of the grading judge judge on vLLM contains a user name and password \(http:\/\/\*\*\*@gpu:8000\/v1\)/);
    expect(runBaseUrlProblem({ ...base, grading: { method: 'alias' } })).toBeNull();
    // A preset's own URL stands in for an empty one.
    expect(runBaseUrlProblem({ ...base, models: [{ ...ok, baseUrl: '' }], grading: { method: 'alias' } })).toBeNull();
    // A model run in the page has no address at all.
    expect(runBaseUrlProblem({ ...base, models: [{ kind: 'in-browser', preset: 'in-browser', baseUrl: '', model: 'tiny-causal-lm' }], grading: { method: 'alias' } })).toBeNull();
  });

  test('a custom server is named by its display name, never by the preset id "custom"', () => {
    const custom = { kind: 'openai' as const, preset: 'custom', baseUrl: 'http://me:pw@127.0.0.1:8000/v1', model: 'my-model' };
    const message = runBaseUrlProblem({ models: [custom], clustering: { method: 'exact' }, grading: { method: 'alias' } });
    expect(message).toMatch(/^The base URL of my-model on the OpenAI-compatible server contains a user name and password/);
    expect(message).not.toMatch(/custom/);
    let thrown = '';
    try {
      createProvider({ ...custom, apiKey: undefined });
    } catch (e) {
      thrown = (e as Error).message;
    }
    expect(thrown).toMatch(/^The base URL for the OpenAI-compatible server contains a user name and password/);
  });
});

describe('createProvider', () => {
  test('refuses a URL with credentials before any request, not retryable, without echoing the password', () => {
    let requests = 0;
    const make = () =>
      createProvider(
        { kind: 'openai', preset: 'openai', baseUrl: 'https://me:pa55word-xyz@api.example.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-k-0123456789' },
        { http: { fetch: async () => (requests++, new Response('{}')) } },
      );
    expect(make).toThrow(ProviderError);
    try {
      make();
    } catch (e) {
      expect((e as ProviderError).toInfo()).toMatchObject({ kind: 'bad-request', retryable: false });
      expect((e as Error).message).not.toContain('pa55word');
    }
    expect(requests).toBe(0);
  });
});
