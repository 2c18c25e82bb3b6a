import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ModelProgress } from '../../../src/model/progress';
import type { ModelLoadProgress } from '../../../src/model/run-spec';
import type { Result } from '../../../src/model/rows';
import { createModelLoader, localModelPath, modelSourcesFor } from '../../../src/workers/model-client';
import type { ModelBackendInfo, ModelWorkerConfig } from '../../../src/workers/model-worker';
import type { WorkerConnection } from '../../../src/workers/worker-connection';

afterEach(() => vi.unstubAllGlobals());

describe('modelSourcesFor', () => {
  test('shipped: the app’s folder only; not shipped: the hub when allowed, else the app’s folder; useLocal overrides', () => {
    expect(modelSourcesFor({ shipped: true, allowRemoteModels: true })).toEqual({ allowRemote: false, useLocal: true });
    expect(modelSourcesFor({ shipped: false, allowRemoteModels: true })).toEqual({ allowRemote: true, useLocal: false });
    expect(modelSourcesFor({ shipped: false, allowRemoteModels: false })).toEqual({ allowRemote: false, useLocal: true });
    expect(modelSourcesFor({ shipped: false, allowRemoteModels: true, useLocalModels: true })).toEqual({ allowRemote: true, useLocal: true });
  });
});

describe('localModelPath', () => {
  test('a same-origin path beside the page (Transformers.js reads local files only from paths), or null', () => {
    vi.stubGlobal('location', { href: 'http://127.0.0.1:5173/app/run.html' });
    expect(localModelPath({ useLocal: true })).toBe('/app/models/');
    expect(localModelPath({ useLocal: true }, '/elsewhere/models/')).toBe('/elsewhere/models/');
    expect(localModelPath({ useLocal: false })).toBeNull();
  });
});

type Api = {
  init(config: ModelWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Result<ModelBackendInfo>>;
  echo(text: string): Promise<Result<string>>;
};

/** A worker connection whose init plays back `events` and then answers with `answer` (a value, or a throw). */
function fakeWorker(answers: (Result<ModelBackendInfo> | Error)[], events: ModelProgress[] = []) {
  const log: string[] = [];
  const configs: ModelWorkerConfig[] = [];
  const connect = (): WorkerConnection<Api> => {
    log.push('connect');
    return {
      api: {
        async init(config: ModelWorkerConfig, onProgress?: (p: ModelProgress) => void) {
          log.push(`init ${config.model}`);
          configs.push(config);
          for (const e of events) onProgress?.(e);
          const answer = answers.shift()!;
          if (answer instanceof Error) throw answer;
          return answer;
        },
        async echo(text: string): Promise<Result<string>> {
          log.push(`echo ${text}`);
          return text ? { ok: true, value: text.toUpperCase() } : { ok: false, error: { kind: 'fake', message: 'nothing to echo' } };
        },
      } as never,
      close: () => log.push('close'),
    };
  };
  return { connect, log, configs };
}

const ready: Result<ModelBackendInfo> = { ok: true, value: { model: 'm', device: 'wasm', note: 'WebGPU is not available in this browser; using WASM' } };

describe('createModelLoader', () => {
  test('one load for every caller; watchers see the files, then the backend; raw events go to onProgress too', async () => {
    const { connect, log } = fakeWorker([ready], [{ status: 'initiate', file: 'onnx/model.onnx' }, { status: 'progress', file: 'onnx/model.onnx', loaded: 5, total: 10 }]);
    const raw: ModelProgress[] = [];
    const loader = createModelLoader<Api>({ model: 'm', role: 'nli', where: 'fake worker', connect, sources: { allowRemote: false, useLocal: false }, settings: { onProgress: (p) => raw.push(p) } });
    const states: ModelLoadProgress[] = [];
    loader.watchLoad((s) => states.push(s));
    expect(states).toEqual([]);
    const [a, b] = await Promise.all([loader.init(), loader.init()]);
    expect(a).toBe(b);
    expect(log).toEqual(['connect', 'init m']);
    expect(raw.map((p) => p.status)).toEqual(['initiate', 'progress']);
    expect(states[0]).toEqual({ model: 'm', role: 'nli', status: 'loading', files: [] });
    expect(states.at(-1)).toEqual({ model: 'm', role: 'nli', status: 'ready', files: [{ file: 'onnx/model.onnx', loaded: 10, total: 10, done: true }], device: 'wasm', note: 'WebGPU is not available in this browser; using WASM' });
    expect(loader.backend()).toEqual(ready.ok && ready.value);
    // A watcher that comes after the load still learns the backend.
    const late: ModelLoadProgress[] = [];
    loader.watchLoad((s) => late.push(s));
    expect(late).toEqual([states.at(-1)]);
  });

  test('a failed load (a value or a throw) is shown, ends the worker and is not cached: the next init starts over', async () => {
    const { connect, log } = fakeWorker([{ ok: false, error: { kind: 'fake-model', message: 'files missing' } }, new Error('worker crashed'), ready]);
    const loader = createModelLoader<Api>({ model: 'm', where: 'fake worker', connect, sources: { allowRemote: false, useLocal: false }, settings: {} });
    const states: ModelLoadProgress[] = [];
    loader.watchLoad((s) => states.push(s));
    expect(await loader.init()).toMatchObject({ ok: false, error: { message: 'files missing' } });
    expect(states.at(-1)).toEqual({ model: 'm', status: 'failed', files: [], error: 'files missing' });
    expect(loader.connection()).toBeUndefined();
    expect(await loader.init()).toMatchObject({ ok: false, error: { message: 'worker crashed', where: 'fake worker' } });
    expect(await loader.init()).toEqual(ready);
    expect(loader.connection()).toBeDefined();
    expect(log).toEqual(['connect', 'init m', 'close', 'connect', 'init m', 'close', 'connect', 'init m']);
    loader.dispose();
    expect(log.at(-1)).toBe('close');
  });
});

describe('what the worker is told', () => {
  test('the sources, the settings’ dtype (or the default, or none), models folder and WebGPU setting', async () => {
    vi.stubGlobal('location', { href: 'http://127.0.0.1:5173/app/' });
    const a = fakeWorker([ready]);
    await createModelLoader<Api>({ model: 'm', where: 'w', connect: a.connect, sources: { allowRemote: true, useLocal: false }, settings: { dtype: 'fp32', webgpu: 'off' }, defaultDtype: 'q8' }).init();
    const b = fakeWorker([ready]);
    await createModelLoader<Api>({ model: 'm', where: 'w', connect: b.connect, sources: { allowRemote: false, useLocal: true }, settings: {}, defaultDtype: 'q8' }).init();
    const c = fakeWorker([ready]);
    await createModelLoader<Api>({ model: 'm', where: 'w', connect: c.connect, sources: { allowRemote: false, useLocal: true }, settings: { localModelUrl: '/elsewhere/' } }).init();
    expect([...a.configs, ...b.configs, ...c.configs]).toEqual([
      { model: 'm', dtype: 'fp32', allowRemoteModels: true, localModelPath: null, webgpu: 'off' },
      { model: 'm', dtype: 'q8', allowRemoteModels: false, localModelPath: '/app/models/', webgpu: 'auto' },
      { model: 'm', allowRemoteModels: false, localModelPath: '/elsewhere/', webgpu: 'auto' },
    ]);
  });
});

describe('createModelLoader().call', () => {
  test('loads first, then asks; a failed answer throws its message', async () => {
    const { connect, log } = fakeWorker([ready]);
    const loader = createModelLoader<Api>({ model: 'm', where: 'fake worker', connect, sources: { allowRemote: false, useLocal: false }, settings: {} });
    expect(await loader.call('echoing', undefined, (api) => api.echo('hi'))).toBe('HI');
    await expect(loader.call('echoing', undefined, (api) => api.echo(''))).rejects.toThrow('nothing to echo');
    expect(log).toEqual(['connect', 'init m', 'echo hi', 'echo ']);
  });

  test('a failed load throws (the caller’s error kind when given); an aborted signal is an AbortError and asks nothing', async () => {
    const failing = fakeWorker([{ ok: false, error: { kind: 'fake-model', message: 'files missing' } }]);
    class LoadError extends Error {
      override name = 'LoadError';
    }
    const loader = createModelLoader<Api>({ model: 'm', where: 'fake worker', connect: failing.connect, sources: { allowRemote: false, useLocal: false }, settings: {}, loadError: (m) => new LoadError(m) });
    await expect(loader.call('echoing', undefined, (api) => api.echo('hi'))).rejects.toThrow(LoadError);
    const fine = fakeWorker([ready]);
    const other = createModelLoader<Api>({ model: 'm', where: 'fake worker', connect: fine.connect, sources: { allowRemote: false, useLocal: false }, settings: {} });
    const aborted = AbortSignal.abort();
    await expect(other.call('echoing', aborted, (api) => api.echo('hi'))).rejects.toMatchObject({ name: 'AbortError', message: 'echoing was cancelled' });
    expect(fine.log).toEqual(['connect', 'init m']);
  });

  test('an answer of kind aborted (a request the worker stopped on a cancel) is an AbortError with its message; another kind a plain Error', async () => {
    const { connect } = fakeWorker([ready]);
    const loader = createModelLoader<Api>({ model: 'm', where: 'fake worker', connect, sources: { allowRemote: false, useLocal: false }, settings: {} });
    const answer = (kind: string) => async (): Promise<Result<string>> => ({ ok: false, error: { kind, message: 'generation was cancelled' } });
    await expect(loader.call('generation', undefined, answer('aborted'))).rejects.toMatchObject({ name: 'AbortError', message: 'generation was cancelled' });
    await expect(loader.call('generation', undefined, answer('generation'))).rejects.toMatchObject({ name: 'Error', message: 'generation was cancelled' });
  });
});
