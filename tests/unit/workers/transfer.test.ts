import { afterEach, expect, test, vi } from 'vitest';
import * as Comlink from 'comlink';
import { registerErrorTransfer, RunWorkerError } from '../../../src/workers/transfer';
import { ProviderError } from '../../../src/providers/errors';
import { throttle } from '../../../src/workers/throttle';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

function pair<T>(api: T) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  Comlink.expose(api, port1);
  return Comlink.wrap<T>(port2);
}

test('a thrown provider error crosses Comlink with kind, status and retryability', async () => {
  registerErrorTransfer();
  const remote = pair({
    fail(): void {
      throw new ProviderError({ kind: 'quota', status: 402, message: 'Out of credit: add credit to your account.' });
    },
  });
  const error = await remote.fail().then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(RunWorkerError);
  expect(error).toMatchObject({ kind: 'quota', status: 402, retryable: false, message: 'Out of credit: add credit to your account.' });
});

test('a plain thrown value still arrives as an internal error with its text', async () => {
  registerErrorTransfer();
  const remote = pair({
    fail(): void {
      throw 'disk full';
    },
  });
  await expect(remote.fail()).rejects.toMatchObject({ kind: 'internal', message: 'disk full' });
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
