/**
 * The model hub's address and an unreachable hub told apart from the hub's own answers: a
 * network failure (fetch's TypeError, Node's refused connection or unresolved name) is
 * 'hub-unreachable', worded once; a missing file or a refused model is not.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_MODEL_HUB, hubFileUrl, hubHost, hubUnreachableMessage, isNetworkFailure, normalizeModelHub } from '../../../src/model/model-hub';
import { loadFailure } from '../../../src/workers/model-worker';
import { createInBrowserProvider } from '../../../src/providers/in-browser/in-browser-provider';
import { HubUnreachableError } from '../../../src/model/model-load-error';
import { ProviderError, stopsRun } from '../../../src/providers/errors';

describe('the model hub address', () => {
  test('empty is the Hugging Face hub; an address gets its trailing slash; anything else is refused by name', () => {
    expect(normalizeModelHub('')).toEqual({ ok: true, value: DEFAULT_MODEL_HUB });
    expect(normalizeModelHub(' http://127.0.0.1:8080 ')).toEqual({ ok: true, value: 'http://127.0.0.1:8080/' });
    expect(normalizeModelHub('https://mirror.example/hf//')).toEqual({ ok: true, value: 'https://mirror.example/hf/' });
    const bad = normalizeModelHub('ftp://x');
    expect(bad.ok ? '' : bad.error.message).toMatch(/must start with https:\/\/ or http:\/\//);
    const creds = normalizeModelHub('https://user:pw@mirror.example/');
    expect(creds.ok ? '' : creds.error.message).toMatch(/user name or password/);
    expect(normalizeModelHub('not an address').ok).toBe(false);
  });

  test("a file's address is Transformers.js's (its key in the browser's cache)", () => {
    expect(hubFileUrl('https://huggingface.co/', 'Xenova/nli-deberta-v3-xsmall', 'onnx/model_quantized.onnx')).toBe('https://huggingface.co/Xenova/nli-deberta-v3-xsmall/resolve/main/onnx/model_quantized.onnx');
    expect(hubFileUrl('http://127.0.0.1:9', 'a/b', 'config.json')).toBe('http://127.0.0.1:9/a/b/resolve/main/config.json');
    expect(hubHost('http://127.0.0.1:9/')).toBe('127.0.0.1:9');
  });
});

describe('an unreachable hub', () => {
  const nodeFailure = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code }) });

  test('network failures are told apart from the hub answering', () => {
    expect(isNetworkFailure(new TypeError('Failed to fetch'))).toBe(true);
    expect(isNetworkFailure(nodeFailure('ECONNREFUSED'))).toBe(true);
    expect(isNetworkFailure(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } }))).toBe(true);
    expect(isNetworkFailure(new Error('could not load "x": Failed to fetch'))).toBe(true);
    expect(isNetworkFailure(new Error('Could not locate file: "https://huggingface.co/x/resolve/main/config.json".'))).toBe(false);
    expect(isNetworkFailure(new Error('Unauthorized access to file'))).toBe(false);
  });

  test("a worker's load failure: the hub's own kind and words when the files had to come from it and the network failed", () => {
    const loadFailed = (config: { model: string }, message: string) => ({ kind: 'nli-model', message: `could not load NLI model "${config.model}": ${message}`, where: 'NLI worker' });
    const remote = { model: 'a/b', allowRemoteModels: true, remoteHost: 'http://127.0.0.1:9/' };
    expect(loadFailure(remote, new TypeError('Failed to fetch'), loadFailed)).toEqual({
      kind: 'hub-unreachable',
      message: hubUnreachableMessage('http://127.0.0.1:9/', 'Failed to fetch'),
      where: 'NLI worker',
    });
    expect(hubUnreachableMessage('http://127.0.0.1:9/', 'Failed to fetch')).toBe(
      "The Hugging Face hub (127.0.0.1:9) cannot be reached from this browser: Failed to fetch. Use exact match, or a shipped model, or download the model while online (Download for offline use, in the run's settings).",
    );
    // The hub answered (a missing file), or it was never asked: the load's own message.
    expect(loadFailure(remote, new Error('Could not locate file'), loadFailed).kind).toBe('nli-model');
    expect(loadFailure({ ...remote, allowRemoteModels: false }, new TypeError('Failed to fetch'), loadFailed).kind).toBe('nli-model');
    expect(loadFailure({ model: 'a/b', allowRemoteModels: true }, nodeFailure('ECONNREFUSED'), loadFailed).message).toMatch(/^The Hugging Face hub \(huggingface\.co\) cannot be reached/);
  });
});

test('the in-page language model meeting an unreachable hub: its own kind, which stops the run, in the same words', async () => {
  const message = hubUnreachableMessage('http://127.0.0.1:9/', 'Failed to fetch');
  const provider = createInBrowserProvider({ kind: 'in-browser', preset: 'in-browser', baseUrl: '', model: 'a/b' }, { generate: async () => { throw new HubUnreachableError(message); } });
  const failure = await provider.completeOnce({ messages: [{ role: 'user', content: 'q' }], settings: { temperature: 1, maxTokens: 8 }, n: 1 }).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(ProviderError);
  expect((failure as ProviderError).kind).toBe('hub-unreachable');
  expect((failure as ProviderError).message).toBe(message);
  expect(stopsRun(failure as ProviderError)).toBe(true);
});
