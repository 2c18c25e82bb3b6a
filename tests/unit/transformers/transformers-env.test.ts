import { env, type ProgressInfo } from '@huggingface/transformers';
import { describe, expect, test } from 'vitest';
import type { ModelProgress } from '../../../src/model/progress';
import { applyEnv, lazily, loadOptions, toProgress } from '../../../src/transformers/transformers-env';

describe('lazily', () => {
  test('loads on the first call only, and concurrent first calls share that load', async () => {
    let loads = 0;
    const ready = lazily(async () => ++loads);
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([ready(), ready()]);
    expect([a, b, await ready(), loads]).toEqual([1, 1, 1, 1]);
  });

  test('a failed load is forgotten: the next call loads again', async () => {
    let loads = 0;
    const ready = lazily(async () => {
      loads++;
      if (loads === 1) throw new Error('no files yet');
      return 'model';
    });
    await expect(ready()).rejects.toThrow('no files yet');
    expect(await ready()).toBe('model');
    expect(await ready()).toBe('model');
    expect(loads).toBe(2);
  });
});

describe('loadOptions and toProgress', () => {
  test('the device only when one is asked for, progress only when followed, as plain data', () => {
    expect(loadOptions('q8', undefined)).toEqual({ dtype: 'q8' });
    const seen: ModelProgress[] = [];
    const options = loadOptions('fp32', 'wasm', (p) => seen.push(p));
    expect(options).toMatchObject({ dtype: 'fp32', device: 'wasm' });
    options.progress_callback!({ status: 'progress', name: 'm', file: 'onnx/model.onnx', progress: 50, loaded: 5, total: 10 } as ProgressInfo);
    options.progress_callback!({ status: 'ready', task: 'feature-extraction', model: 'm' } as ProgressInfo);
    expect(seen).toEqual([{ status: 'progress', file: 'onnx/model.onnx', progress: 50, loaded: 5, total: 10 }, { status: 'ready' }]);
    expect(toProgress({ status: 'initiate', name: 'm', file: 'config.json' } as ProgressInfo)).toEqual({ status: 'initiate', file: 'config.json' });
  });
});

describe('applyEnv', () => {
  test('sets every setting of the library’s one env from the source, so no earlier load leaks into the next', () => {
    applyEnv({ model: 'm', allowRemoteModels: true, localModelPath: '/models/' });
    expect([env.allowRemoteModels, env.allowLocalModels, env.localModelPath]).toEqual([true, true, '/models/']);
    applyEnv({ model: 'm', localModelPath: null });
    expect([env.allowRemoteModels, env.allowLocalModels]).toEqual([false, false]);
    // Node has no Cache API: the browser cache is off there.
    expect(env.useBrowserCache).toBe(typeof caches !== 'undefined');
  });
});
