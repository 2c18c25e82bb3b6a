/**
 * A batch service's requests (GET, JSON POST, multipart upload, streamed download) sent through
 * the providers' HttpClient: the same retry policy, the key attached by the wire format's own
 * headers, errors classified by the wire format's own classifier (status and retryability kept),
 * and no message ever holding the key. Only URLs and bodies are the batch service's.
 */
import { DEFAULT_POLICY, HttpClient, type RetryPolicy, type WireRequest, realDeps } from './http.ts';
import { joinUrl, parseJsonBody } from './wire.ts';
import type { BatchCallsOptions, WireContext, WireFormat } from './wire-format.ts';

/** The providers' policy, with room for a request file of a few hundred MB to upload. */
const BATCH_POLICY: RetryPolicy = { ...DEFAULT_POLICY, timeoutMs: 10 * 60_000 };

/** A service's calls are few and mostly one after another (submit, poll, download). */
const CONCURRENCY = 4;

export class ServiceCalls {
  private readonly http: HttpClient;
  /** The context with the key, for error texts to scrub it from. */
  private readonly keyed: WireContext;

  constructor(
    readonly format: Pick<WireFormat, 'headers' | 'error'>,
    private readonly opts: BatchCallsOptions,
  ) {
    this.http = new HttpClient(opts.ctx.preset, opts.apiKey, CONCURRENCY, BATCH_POLICY, { ...realDeps(), ...opts.deps });
    this.keyed = { ...opts.ctx, apiKey: opts.apiKey };
  }

  url(path: string): string {
    return joinUrl(this.opts.ctx.baseUrl, path);
  }

  /** A JSON reply; `body` is sent as JSON, or as multipart when it is a FormData. */
  async json(method: 'GET' | 'POST', url: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const call = { ...this.request(method, url, body), parse: (text: string, status: number) => parseJsonBody(text, this.keyed, status) };
    return (await this.http.send(call, { signal })).value;
  }

  /** A download as a stream of text chunks, so a large result file is never held whole. */
  stream(url: string, signal?: AbortSignal): Promise<ReadableStream<string>> {
    return this.http.stream(this.request('GET', url), { signal });
  }

  private request(method: 'GET' | 'POST', url: string, body?: unknown): WireRequest {
    // The key goes only to the provider's own origin (a results URL elsewhere gets no key).
    const key = sameOrigin(url, this.opts.ctx.baseUrl) ? this.opts.apiKey : undefined;
    return {
      url, method, body,
      headers: this.format.headers(key),
      error: (status, _headers, text, retryAfterMs) => this.format.error(this.keyed, status, text, retryAfterMs),
    };
  }
}

function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
}
