/**
 * HTTP for the batch services: GET, JSON POST, multipart upload and streamed downloads, which the
 * providers' HttpClient (JSON POST only) does not do. Same rules: errors are typed ProviderErrors
 * built by each wire format's own classifier, retryable ones are retried with full-jitter backoff
 * (Retry-After wins), and no message ever contains the key.
 */
import { anthropicError } from '../providers/anthropic.ts';
import { ProviderError, adviceFor, parseRetryAfter, scrubKey } from '../providers/errors.ts';
import { geminiError } from '../providers/gemini.ts';
import { abortableSleep, abortedError } from '../providers/http.ts';
import { openaiError } from '../providers/openai.ts';
import type { WireContext } from '../providers/wire.ts';
import { joinUrl } from '../providers/wire.ts';
import type { BatchApi } from './types.ts';

export interface BatchHttpDeps {
  fetch: typeof fetch;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
}

export const realBatchDeps = (): BatchHttpDeps => ({ fetch: (i, init) => globalThis.fetch(i, init), sleep: abortableSleep, random: Math.random, now: Date.now });

export interface BatchHttpOptions {
  api: BatchApi;
  ctx: WireContext;
  apiKey?: string;
  deps?: Partial<BatchHttpDeps>;
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

const CLASSIFY = { openai: openaiError, anthropic: anthropicError, gemini: geminiError };

export class BatchHttp {
  readonly deps: BatchHttpDeps;
  constructor(private readonly opts: BatchHttpOptions) {
    this.deps = { ...realBatchDeps(), ...opts.deps };
  }

  url(path: string): string {
    return joinUrl(this.opts.ctx.baseUrl, path);
  }

  /** The key goes only to the provider's own origin (a results URL elsewhere gets no key). */
  private headers(url: string, extra: Record<string, string>): Record<string, string> {
    const h: Record<string, string> = { ...extra };
    const key = this.opts.apiKey;
    if (!key) return h;
    let same = false;
    try {
      same = new URL(url).origin === new URL(this.opts.ctx.baseUrl).origin;
    } catch {
      same = false;
    }
    if (!same) return h;
    if (this.opts.api === 'openai') h.authorization = `Bearer ${key}`;
    else if (this.opts.api === 'anthropic') h['x-api-key'] = key;
    else h['x-goog-api-key'] = key;
    return h;
  }

  /** One request with retries; returns the response once it is OK (its body unread). */
  async send(method: 'GET' | 'POST', url: string, body?: string | FormData, signal?: AbortSignal): Promise<Response> {
    const maxRetries = this.opts.maxRetries ?? 6;
    const extra: Record<string, string> = typeof body === 'string' ? { 'content-type': 'application/json' } : {};
    if (this.opts.api === 'anthropic') Object.assign(extra, { 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' });
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw abortedError();
      let error: ProviderError;
      try {
        const res = await this.deps.fetch(url, { method, headers: this.headers(url, extra), body, signal });
        if (res.ok) return res;
        const text = await res.text();
        error = CLASSIFY[this.opts.api]({ ...this.opts.ctx, apiKey: this.opts.apiKey }, res.status, text, parseRetryAfter(res.headers, this.deps.now()));
      } catch (e) {
        if (signal?.aborted) throw abortedError();
        error = e instanceof ProviderError ? e : this.network(e);
      }
      if (!error.retryable || attempt >= maxRetries) throw error;
      const cap = Math.min(this.opts.maxDelayMs ?? 30_000, (this.opts.baseDelayMs ?? 500) * 2 ** attempt);
      await this.deps.sleep(error.retryAfterMs ?? Math.floor(this.deps.random() * cap), signal);
    }
  }

  async json(method: 'GET' | 'POST', url: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const payload = body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body);
    const res = await this.send(method, url, payload, signal);
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new ProviderError({ kind: 'bad-response', status: res.status, message: `${adviceFor('bad-response', res.status, this.opts.ctx.preset)} The body was not JSON: "${scrubKey(text.slice(0, 120), this.opts.apiKey)}"` });
    }
  }

  /** A download as a stream of text chunks, so a large result file is never held whole. */
  async stream(url: string, signal?: AbortSignal): Promise<ReadableStream<string>> {
    const res = await this.send('GET', url, undefined, signal);
    if (!res.body) return new Response('').body!.pipeThrough(new TextDecoderStream());
    return res.body.pipeThrough(new TextDecoderStream());
  }

  private network(e: unknown): ProviderError {
    const detail = e instanceof Error ? e.message : String(e);
    return new ProviderError({ kind: 'network', message: `${adviceFor('network', null, this.opts.ctx.preset)} (${scrubKey(detail, this.opts.apiKey).slice(0, 200)})` });
  }
}
