/**
 * The one protocol every worker and its client speak: Comlink, with the error transfer handler
 * of transfer.ts registered on both sides (a thrown error keeps its kind, message, where and
 * status), expected failures as `Result` values, and a start handshake so a worker that cannot
 * start (a page opened from a file that forbids workers, a module that fails to load) fails its
 * callers with a `worker-unavailable` error instead of leaving them waiting forever.
 *
 * Worker side: `exposeApi(api)`. Page side: `connectApi(() => new Worker(…))`, which starts the
 * worker on the first call, so a page that never needs it never loads it.
 */
import * as Comlink from 'comlink';
import { registerErrorTransfer, WorkerError } from './transfer';
import { heardNotice, isStorageNotice, STORAGE_NOTICE } from './storage-notice-channel';
import { errorMessage } from '../model/app-error';

/** Posted by exposeApi once the API listens; Comlink's own listener ignores messages without an id. */
const STARTED = 'semece-worker-started';

type StartedMessage = { [STARTED]: true };

const isStarted = (data: unknown): data is StartedMessage => typeof data === 'object' && data !== null && STARTED in data;

/** The `kind` of the error a call gets when its worker could not start. */
export const WORKER_UNAVAILABLE = 'worker-unavailable';

/** Serves `api` over `endpoint` (the worker's global scope by default). */
export function exposeApi(api: object, endpoint: Comlink.Endpoint = globalThis as unknown as Comlink.Endpoint): void {
  registerErrorTransfer();
  Comlink.expose(api, endpoint);
  endpoint.postMessage({ [STARTED]: true } satisfies StartedMessage);
}

/** What connectApi starts: a module Worker, or (in Node tests) one end of a MessageChannel. */
export type WorkerEndpoint = Comlink.Endpoint & { terminate?: () => void; close?: () => void };

export interface WorkerConnection<T> {
  /** The worker's API; the first call starts the worker. */
  api: Comlink.Remote<T>;
  /** Ends the worker; the next call starts a fresh one. */
  close(): void;
}

interface Started<T> {
  remote: Comlink.Remote<T>;
  endpoint: WorkerEndpoint | undefined;
  /** Rejects with a WorkerError if the worker fails before it has started; never resolves. */
  failure: Promise<never>;
}

export interface ConnectOptions<T> {
  /** Names the worker in the error a failed start gives ("the run worker could not start"). */
  name: string;
  /** Called once per started worker, before the caller's first call goes out. */
  onStart?: (api: Comlink.Remote<T>) => void;
}

export function connectApi<T>(start: () => WorkerEndpoint, options: ConnectOptions<T>): WorkerConnection<T> {
  let current: Started<T> | undefined;

  const unavailable = (why: string) =>
    new WorkerError({ kind: WORKER_UNAVAILABLE, message: `The ${options.name} worker could not start${why ? `: ${why}` : ''}.`, where: `${options.name} worker` });

  function begin(): Started<T> {
    registerErrorTransfer();
    let endpoint: WorkerEndpoint;
    try {
      endpoint = start();
    } catch (e) {
      const failure = Promise.reject(unavailable(errorMessage(e)));
      failure.catch(() => undefined);
      return { remote: undefined as never, endpoint: undefined, failure };
    }
    let started = false;
    const failure = new Promise<never>((_, reject) => {
      endpoint.addEventListener('message', (e) => {
        const data = (e as MessageEvent).data;
        if (isStarted(data)) started = true;
        else if (isStorageNotice(data)) heardNotice(data[STORAGE_NOTICE]);
      });
      endpoint.addEventListener('error', (e) => {
        // After the start, an uncaught error inside the worker is the browser's to report, as before.
        if (started) return;
        e.preventDefault();
        endpoint.terminate?.();
        reject(unavailable((e as ErrorEvent).message ?? ''));
      });
    });
    // Nobody may be waiting when a start fails.
    failure.catch(() => undefined);
    const remote = Comlink.wrap<T>(endpoint);
    options.onStart?.(remote);
    return { remote, endpoint, failure };
  }

  const connected = () => (current ??= begin());

  const api = new Proxy({} as Comlink.Remote<T>, {
    get(_target, method) {
      // Not a thenable: `await connection.api` must not call the worker.
      if (typeof method !== 'string' || method === 'then') return undefined;
      return (...args: unknown[]) => {
        const { remote, failure } = connected();
        if (!remote) return failure;
        const call = (remote as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method](...args);
        return Promise.race([call, failure]);
      };
    },
  });

  return {
    api,
    close() {
      const endpoint = current?.endpoint;
      current = undefined;
      endpoint?.terminate?.();
      endpoint?.close?.();
    },
  };
}
