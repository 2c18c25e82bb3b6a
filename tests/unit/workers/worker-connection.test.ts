import { afterEach, expect, test, vi } from 'vitest';
import { connectApi, exposeApi, WORKER_UNAVAILABLE, type WorkerEndpoint } from '../../../src/workers/worker-connection';
import { WorkerError } from '../../../src/workers/transfer';
import { ProviderError } from '../../../src/providers/errors';
import { throttle } from '../../../src/workers/throttle';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

/** The page's connection to `api` served over a MessageChannel, as a worker would serve it. */
function pair<T extends object>(api: T) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  exposeApi(api, port1);
  return connectApi<T>(() => port2, { name: 'test' }).api;
}

test('a thrown provider error crosses the worker boundary with kind, status and retryability', async () => {
  const remote = pair({
    fail(): void {
      throw new ProviderError({ kind: 'quota', status: 402, message: 'Out of credit: add credit to your account.' });
    },
  });
  const error = await remote.fail().then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkerError);
  expect(error).toMatchObject({ kind: 'quota', status: 402, retryable: false, message: 'Out of credit: add credit to your account.' });
});

test('a plain thrown value still arrives as an internal error with its text', async () => {
  const remote = pair({
    fail(): void {
      throw 'disk full';
    },
  });
  await expect(remote.fail()).rejects.toMatchObject({ kind: 'internal', message: 'disk full' });
});

test('an error with a place keeps it across the boundary', async () => {
  const remote = pair({
    fail(): void {
      throw Object.assign(new Error('The stored run "r1" cannot be read: spec.models: expected array'), { kind: 'stored-record', where: 'runs/r1' });
    },
  });
  await expect(remote.fail()).rejects.toMatchObject({ kind: 'stored-record', where: 'runs/r1', message: 'The stored run "r1" cannot be read: spec.models: expected array' });
});

test('values come back as they are; the worker starts on the first call only', async () => {
  let started = 0;
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  exposeApi({ twice: (n: number) => 2 * n }, port1);
  const connection = connectApi<{ twice(n: number): number }>(() => {
    started++;
    return port2;
  }, { name: 'test' });
  expect(started).toBe(0);
  expect(await connection.api.twice(21)).toBe(42);
  expect(await connection.api.twice(2)).toBe(4);
  expect(started).toBe(1);
});

/** A stand-in for a module Worker whose script fails to load: it fires `error` and never answers. */
class FailingWorker extends EventTarget implements WorkerEndpoint {
  terminated = false;
  postMessage(): void {
    queueMicrotask(() => this.dispatchEvent(Object.assign(new Event('error', { cancelable: true }), { message: 'Failed to fetch a worker script' })));
  }
  terminate(): void {
    this.terminated = true;
  }
}

test('a worker that cannot start fails every call with worker-unavailable instead of leaving it waiting', async () => {
  const failing = new FailingWorker();
  const connection = connectApi<{ work(): Promise<number> }>(() => failing, { name: 'recompute' });
  await expect(connection.api.work()).rejects.toMatchObject({ kind: WORKER_UNAVAILABLE, message: 'The recompute worker could not start: Failed to fetch a worker script.' });
  expect(failing.terminated).toBe(true);
  await expect(connection.api.work()).rejects.toMatchObject({ kind: WORKER_UNAVAILABLE });
});

test('a worker that cannot even be created fails its calls the same way', async () => {
  const connection = connectApi<{ work(): Promise<number> }>(() => {
    throw new Error('workers are not allowed here');
  }, { name: 'recompute' });
  await expect(connection.api.work()).rejects.toMatchObject({ kind: WORKER_UNAVAILABLE, message: 'The recompute worker could not start: workers are not allowed here.' });
});

test('throttle sends the first value at once and always the last one', () => {
  // Fake timers (and Date.now), so a machine that stalls between two calls changes nothing.
  vi.useFakeTimers();
  try {
    const seen: number[] = [];
    const send = throttle((v: number) => seen.push(v), 50);
    for (let i = 1; i <= 100; i++) send(i);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(49);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([1, 100]);
    send(101);
    send.flush();
    expect(seen.at(-1)).toBe(101);
  } finally {
    vi.useRealTimers();
  }
});
