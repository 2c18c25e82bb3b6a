/**
 * The one retry policy every provider uses: a concurrency limit per provider (p-limit), a timeout
 * per attempt, cancellation by AbortSignal, exponential backoff with full jitter, and Retry-After
 * when the response lets us read it. Errors the user must fix (auth, quota, bad request, not found)
 * are never retried. Clock, sleep and random are injectable so tests control time.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { ProviderError, adviceFor, parseRetryAfter, scrubKey } from './errors.ts';
import type { RequestEvent } from '../model/provider.ts';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per attempt, covering the response body too. */
  timeoutMs: number;
  /** A Retry-After longer than this is capped (a day-long wait would freeze a run silently). */
  maxRetryAfterMs: number;
}

export const DEFAULT_POLICY: RetryPolicy = {
  maxRetries: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  timeoutMs: 120_000,
  maxRetryAfterMs: 120_000,
};

export interface HttpDeps {
  fetch: typeof fetch;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const realDeps = (): HttpDeps => ({
  fetch: (input, init) => globalThis.fetch(input, init),
  sleep: abortableSleep,
  random: Math.random,
  now: Date.now,
});

function abortedError(): ProviderError {
  return new ProviderError({ kind: 'aborted', message: adviceFor('aborted', null, '') });
}

/** One HTTP request as a wire format describes it. */
export interface WireRequest {
  url: string;
  /** POST unless said otherwise (batch services are also read with GET). */
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Sent as JSON; a FormData goes as multipart (fetch writes its content-type); none with a GET. */
  body?: unknown;
  /** Turns a non-2xx reply into a ProviderError (refining 429s into quota vs rate limit). */
  error(status: number, headers: Headers, text: string, retryAfterMs: number | null): ProviderError;
}

/** One HTTP exchange as a wire format describes it: the request and how its 2xx body is read. */
export interface WireCall<T> extends WireRequest {
  /** Turns a 2xx body into a value, or throws a ProviderError (e.g. malformed JSON, error in a 200). */
  parse(text: string, status: number): T;
}

export interface SendOptions {
  signal?: AbortSignal;
  onEvent?: (e: RequestEvent) => void;
}

export class HttpClient {
  readonly limit: LimitFunction;

  constructor(
    readonly preset: string,
    private readonly apiKey: string | undefined,
    concurrency: number,
    readonly policy: RetryPolicy = DEFAULT_POLICY,
    readonly deps: HttpDeps = realDeps(),
  ) {
    this.limit = pLimit(Math.max(1, Math.floor(concurrency)));
  }

  /** Full jitter: uniform in [0, min(max, base·2^attempt)]; Retry-After, when readable, wins. */
  backoffMs(attempt: number, retryAfterMs: number | null): number {
    if (retryAfterMs !== null) return Math.min(retryAfterMs, this.policy.maxRetryAfterMs);
    const cap = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** attempt);
    return Math.floor(this.deps.random() * cap);
  }

  async send<T>(call: WireCall<T>, opts: SendOptions = {}): Promise<{ value: T; ms: number }> {
    return this.retrying(opts, () => this.attempt(call, opts.signal, async (res) => call.parse(await res.text(), res.status)));
  }

  /**
   * A 2xx body as a stream of text, so a large download (a batch's result file) is never held
   * whole. Retries and the timeout cover the request up to the response headers; the caller's
   * signal still cancels the stream after that.
   */
  async stream(request: WireRequest, opts: SendOptions = {}): Promise<ReadableStream<string>> {
    const { value } = await this.retrying(opts, () =>
      this.attempt(request, opts.signal, async (res) => (res.body ?? new Response('').body!).pipeThrough(new TextDecoderStream())),
    );
    return value;
  }

  private async retrying<T>(opts: SendOptions, once: () => Promise<{ value: T; ms: number }>): Promise<{ value: T; ms: number }> {
    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw abortedError();
      let error: ProviderError;
      try {
        // The slot is held only while the request is in flight, never while backing off.
        return await this.limit(once);
      } catch (e) {
        error = e instanceof ProviderError ? e : this.unexpected(e);
      }
      if (!error.retryable || attempt >= this.policy.maxRetries) {
        opts.onEvent?.({ type: 'failed', error: toInfo(error) });
        throw error;
      }
      const delayMs = this.backoffMs(attempt, error.retryAfterMs);
      opts.onEvent?.({ type: 'retrying', attempt: attempt + 1, delayMs, error: toInfo(error) });
      await this.deps.sleep(delayMs, opts.signal);
    }
  }

  private async attempt<T>(call: WireRequest, signal: AbortSignal | undefined, read: (res: Response) => Promise<T>): Promise<{ value: T; ms: number }> {
    if (signal?.aborted) throw abortedError();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.policy.timeoutMs);
    // AbortSignal.any links without an event listener per request on the caller's signal
    // (hundreds of requests share one run signal).
    const combined = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
    const started = this.deps.now();
    try {
      const res = await this.deps.fetch(call.url, { method: call.method ?? 'POST', ...bodyOf(call), signal: combined });
      if (!res.ok) {
        const text = await res.text();
        throw call.error(res.status, res.headers, text, parseRetryAfter(res.headers, this.deps.now()));
      }
      const value = await read(res);
      return { value, ms: this.deps.now() - started };
    } catch (e) {
      if (e instanceof ProviderError) throw e;
      if (signal?.aborted) throw abortedError();
      if (timedOut) {
        throw new ProviderError({ kind: 'timeout', message: `${adviceFor('timeout', null, this.preset)} (after ${this.policy.timeoutMs} ms)` });
      }
      throw this.unexpected(e);
    } finally {
      clearTimeout(timer);
    }
  }

  /** fetch rejects with a TypeError on network failure, CORS refusal or a dropped connection. */
  private unexpected(e: unknown): ProviderError {
    const detail = e instanceof Error ? `${e.message}${causeText(e)}` : String(e);
    return new ProviderError({
      kind: 'network',
      message: `${adviceFor('network', null, this.preset)} (${scrubKey(detail, this.apiKey).slice(0, 200)})`,
    });
  }
}

/** Body and headers for fetch: a content-type describes a JSON body only (multipart writes its own). */
function bodyOf(call: WireRequest): { headers: Record<string, string>; body?: BodyInit } {
  if (call.body !== undefined && !(call.body instanceof FormData)) return { headers: call.headers, body: JSON.stringify(call.body) };
  const headers = Object.fromEntries(Object.entries(call.headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
  return call.body === undefined ? { headers } : { headers, body: call.body };
}

function causeText(e: Error): string {
  const cause = (e as { cause?: unknown }).cause;
  return cause instanceof Error ? `: ${cause.message}` : '';
}

function toInfo(e: ProviderError) {
  return e.toInfo();
}
