import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ModelProgress } from '../../../src/model/progress';
import type { ModelLoadProgress } from '../../../src/model/run-spec';
import type { Result } from '../../../src/model/rows';
import type { GenerateRequest, GenerateResult } from '../../../src/providers/in-browser/generate';
import type { ModelBackendInfo, ModelWorkerConfig } from '../../../src/workers/model-worker';

/** The generation worker as the client sees it: init answers with `answers` in turn; generate waits for cancel when asked to. */
const worker = vi.hoisted(() => ({
  answers: [] as unknown[],
  configs: [] as unknown[],
  log: [] as string[],
  cancels: new Map<number, () => void>(),
}));

vi.mock('../../../src/workers/worker-connection', () => ({
  connectApi: () => ({
    api: {
      async init(config: ModelWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Result<ModelBackendInfo>> {
        worker.configs.push(config);
        onProgress?.({ status: 'webgpu-check-generation' });
        return worker.answers.shift() as Result<ModelBackendInfo>;
      },
      generate(id: number, request: GenerateRequest): Promise<Result<GenerateResult>> {
        worker.log.push(`generate ${id}`);
        const done: Result<GenerateResult> = { ok: true, value: { replies: [{ text: 'Canberra', finishReason: 'stop', tokens: 2 }], inputTokens: 5, outputTokens: 2, ms: 1 } };
        if (request.maxTokens > 1) return Promise.resolve(done);
        // A long request: it ends only when cancelled, as the worker's does at its next token.
        return new Promise((resolve) => worker.cancels.set(id, () => resolve({ ok: false, error: { kind: 'aborted', message: 'generation was cancelled', where: 'generation worker' } })));
      },
      cancel(id: number) {
        worker.log.push(`cancel ${id}`);
        worker.cancels.get(id)?.();
      },
    },
    close: () => worker.log.push('close'),
  }),
}));

const { createGenerationClient, generationModelSources } = await import('../../../src/workers/generation-client');

const request = (maxTokens: number): GenerateRequest => ({ messages: [{ role: 'user', content: 'Capital of Australia?' }], n: 1, temperature: 1, maxTokens });

// A page or worker always has a location, against which the models folder resolves.
beforeEach(() => vi.stubGlobal('location', { href: 'http://127.0.0.1:5173/app/' }));
afterEach(() => {
  vi.unstubAllGlobals();
  worker.answers = [];
  worker.configs = [];
  worker.log = [];
  worker.cancels.clear();
});

describe('where the generation worker looks for a model', () => {
  test('the shipped tiny model: the app’s folder only; a hub model: the hub when allowed', () => {
    expect(generationModelSources('tiny-causal-lm', { allowRemoteModels: true })).toEqual({ allowRemote: false, useLocal: true });
    expect(generationModelSources('onnx-community/Qwen2.5-0.5B-Instruct', { allowRemoteModels: true })).toEqual({ allowRemote: true, useLocal: false });
    expect(generationModelSources('onnx-community/Qwen2.5-0.5B-Instruct', { allowRemoteModels: false })).toEqual({ allowRemote: false, useLocal: true });
  });
});

describe('createGenerationClient', () => {
  test('tells the worker the sources and settings; the load is followed as a generation model’s; notes name the backend and why', async () => {
    worker.answers.push({ ok: true, value: { model: 'tiny-causal-lm', device: 'wasm', note: 'WebGPU unavailable (no adapter); using WASM' } });
    const client = createGenerationClient({ model: 'tiny-causal-lm', allowRemoteModels: true });
    const loads: ModelLoadProgress[] = [];
    client.watchLoad((s) => loads.push(s));
    expect(client.notes?.()).toEqual([]);
    expect(await client.generate(request(4))).toMatchObject({ replies: [{ text: 'Canberra' }] });
    expect(worker.configs).toEqual([{ model: 'tiny-causal-lm', allowRemoteModels: false, localModelPath: '/app/models/', webgpu: 'auto' }]);
    expect(loads.map((s) => [s.role, s.status, s.phase])).toEqual([
      ['generation', 'loading', undefined],
      ['generation', 'loading', 'trying WebGPU (its next-token probabilities must agree with WASM)'],
      ['generation', 'ready', undefined],
    ]);
    expect(client.notes?.()).toEqual(['generated in this browser on WASM (WebGPU unavailable (no adapter))']);
  });

  test('a model that cannot load throws a ModelLoadError (the provider stops the run on it), and the next call loads again', async () => {
    worker.answers.push({ ok: false, error: { kind: 'model-load', message: 'could not load "x" from the Hugging Face hub: its files were not found', where: 'generation worker' } });
    worker.answers.push({ ok: true, value: { model: 'x', device: 'webgpu' } });
    const client = createGenerationClient({ model: 'x', allowRemoteModels: true });
    await expect(client.generate(request(4))).rejects.toMatchObject({ name: 'ModelLoadError', message: 'could not load "x" from the Hugging Face hub: its files were not found' });
    expect(worker.log).toEqual(['close']);
    await client.generate(request(4));
    expect(client.notes?.()).toEqual(['generated in this browser on WebGPU']);
  });

  test('an abort cancels that request in the worker by its id: an AbortError, and later requests still run', async () => {
    worker.answers.push({ ok: true, value: { model: 'x', device: 'wasm' } });
    const client = createGenerationClient({ model: 'x', allowRemoteModels: true });
    await client.init();
    const controller = new AbortController();
    const running = client.generate(request(1), controller.signal);
    await vi.waitFor(() => expect(worker.cancels.has(1)).toBe(true));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError', message: 'generation was cancelled' });
    await client.generate(request(4));
    expect(worker.log).toEqual(['generate 1', 'cancel 1', 'generate 2']);
    await expect(client.generate(request(4), AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
    expect(worker.log).toHaveLength(3);
  });
});
