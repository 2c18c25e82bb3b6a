import { describe, expect, test } from 'vitest';
import type { ModelProgress } from '../../../src/model/progress';
import { chooseBackend, createModelHost, type BackendChoice, type ModelDevice } from '../../../src/workers/model-worker';

/** A fake model kind: each load is a numbered instance on a device, its probe output a number; the log says what happened in order. */
function fakeChoice(over: Partial<BackendChoice<string, number>> & { gpuOutput?: number; gpuFails?: string } = {}) {
  const log: string[] = [];
  let loads = 0;
  const choice: BackendChoice<string, number> = {
    model: 'm',
    gpuPresent: true,
    async load(device: ModelDevice, onProgress?: (p: ModelProgress) => void) {
      if (device === 'webgpu' && over.gpuFails) throw new Error(over.gpuFails);
      const name = `${device}#${++loads}`;
      log.push(`load ${name}${onProgress ? ' (progress)' : ''}`);
      return name;
    },
    async probe(instance) {
      log.push(`probe ${instance}`);
      return instance.startsWith('webgpu') ? (over.gpuOutput ?? 1) : 1;
    },
    agree: (reference, candidate) => ({ agree: Math.abs(reference - candidate) < 0.1, worst: Math.abs(reference - candidate) }),
    async dispose(instance) {
      log.push(`dispose ${instance}`);
    },
    turnedOffFor: 'the fake model',
    disagreement: (worst) => `WebGPU outputs disagree with WASM (difference ${worst.toFixed(2)})`,
    checkStatus: 'fake-check',
    ...over,
  };
  return { choice, log };
}

describe('chooseBackend', () => {
  test('no WebGPU, or WebGPU turned off: WASM, with the reason, and WebGPU never loaded', async () => {
    const absent = fakeChoice({ gpuPresent: false });
    expect(await chooseBackend(absent.choice)).toEqual({ instance: 'wasm#1', info: { model: 'm', device: 'wasm', note: 'WebGPU is not available in this browser; using WASM' } });
    const off = fakeChoice({ webgpu: 'off' });
    expect((await chooseBackend(off.choice)).info.note).toBe('WebGPU is turned off for the fake model; using WASM');
    expect([...absent.log, ...off.log]).toEqual(['load wasm#1', 'load wasm#1']);
  });

  test('WebGPU that agrees with WASM on the probes runs the model; WASM is let go; progress says WebGPU is being tried', async () => {
    const { choice, log } = fakeChoice();
    const progress: ModelProgress[] = [];
    expect(await chooseBackend(choice, (p) => progress.push(p))).toEqual({ instance: 'webgpu#2', info: { model: 'm', device: 'webgpu' } });
    expect(log).toEqual(['load wasm#1 (progress)', 'load webgpu#2', 'probe wasm#1', 'probe webgpu#2', 'dispose wasm#1']);
    expect(progress).toEqual([{ status: 'fake-check' }]);
  });

  test('WebGPU that disagrees, or fails, leaves WASM running, with the reason', async () => {
    const disagreeing = fakeChoice({ gpuOutput: 1.5 });
    expect(await chooseBackend(disagreeing.choice)).toEqual({ instance: 'wasm#1', info: { model: 'm', device: 'wasm', note: 'WebGPU outputs disagree with WASM (difference 0.50); using WASM' } });
    expect(disagreeing.log.at(-1)).toBe('dispose webgpu#2');
    const failing = fakeChoice({ gpuFails: 'no adapter' });
    expect((await chooseBackend(failing.choice)).info).toEqual({ model: 'm', device: 'wasm', note: 'WebGPU unavailable (no adapter); using WASM' });
  });

  test('one at a time: WASM is probed and let go before WebGPU loads, and loaded again when WebGPU is not trusted', async () => {
    const trusted = fakeChoice({ oneAtATime: true });
    expect((await chooseBackend(trusted.choice)).instance).toBe('webgpu#2');
    expect(trusted.log).toEqual(['load wasm#1', 'probe wasm#1', 'dispose wasm#1', 'load webgpu#2', 'probe webgpu#2']);
    const disagreeing = fakeChoice({ oneAtATime: true, gpuOutput: 2 });
    expect(await chooseBackend(disagreeing.choice)).toEqual({ instance: 'wasm#3', info: { model: 'm', device: 'wasm', note: 'WebGPU outputs disagree with WASM (difference 1.00); using WASM' } });
    expect(disagreeing.log.slice(3)).toEqual(['load webgpu#2', 'probe webgpu#2', 'dispose webgpu#2', 'load wasm#3']);
    const failing = fakeChoice({ oneAtATime: true, gpuFails: 'lost device' });
    expect(await chooseBackend(failing.choice)).toEqual({ instance: 'wasm#2', info: { model: 'm', device: 'wasm', note: 'WebGPU unavailable (lost device); using WASM' } });
  });

  test('a failed WebGPU attempt is told in the kind’s own words when it gives them, both ways of trying', async () => {
    const failureCause = (err: unknown) => (err as Error).message.replace(/^could not load "m": /, '');
    for (const oneAtATime of [false, true]) {
      const failing = fakeChoice({ oneAtATime, gpuFails: 'could not load "m": no adapter', failureCause });
      const chosen = await chooseBackend(failing.choice);
      expect(chosen.info.note).toBe('WebGPU unavailable (no adapter); using WASM');
      // Kept loaded, or loaded again after it was let go.
      expect(chosen.instance).toBe(oneAtATime ? 'wasm#2' : 'wasm#1');
    }
  });
});

describe('createModelHost', () => {
  type Config = { model: string; dtype?: string };
  function host(failFirst = 0) {
    const loads: string[] = [];
    let failures = failFirst;
    const h = createModelHost(
      async (config: Config, onProgress?: (p: ModelProgress) => void) => {
        loads.push(`${config.model}${onProgress ? ' (progress)' : ''}`);
        if (failures-- > 0) throw new Error('files missing');
        return { instance: `${config.model} loaded`, info: { model: config.model, device: 'wasm' as const } };
      },
      (config, message) => ({ kind: 'fake-model', message: `could not load "${config.model}": ${message}`, where: 'fake worker' }),
    );
    return { h, loads };
  }

  test('nothing to use before init; one load per configuration, shared by init and use', async () => {
    const { h, loads } = host();
    expect(h.use()).toBeUndefined();
    expect(await h.init({ model: 'a' }, () => {})).toEqual({ ok: true, value: { model: 'a', device: 'wasm' } });
    expect(await h.init({ model: 'a' })).toMatchObject({ ok: true });
    const use = h.use()!;
    expect(use.config).toEqual({ model: 'a' });
    expect((await use.loaded).instance).toBe('a loaded');
    expect(loads).toEqual(['a (progress)']);
    await h.init({ model: 'a', dtype: 'fp32' });
    await h.init({ model: 'b' });
    expect(loads).toEqual(['a (progress)', 'a', 'b']);
    expect(h.use()!.config).toEqual({ model: 'b' });
  });

  test('a failed load comes back as a value and is forgotten: the next call loads again', async () => {
    const { h, loads } = host(1);
    expect(await h.init({ model: 'a' })).toEqual({ ok: false, error: { kind: 'fake-model', message: 'could not load "a": files missing', where: 'fake worker' } });
    expect((await h.use()!.loaded).instance).toBe('a loaded');
    expect(loads).toEqual(['a', 'a']);
  });
});
