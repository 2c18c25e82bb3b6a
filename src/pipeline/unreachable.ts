/**
 * When a run's server cannot be reached, the run stops instead of failing each question on its own.
 *
 * A request that fails to connect (connection refused, a name that does not resolve, a TLS
 * handshake that fails, fetch's TypeError in a browser) has already been retried with backoff by
 * the HTTP client (providers/http.ts: 7 attempts over about 15 s); the provider then reports it as
 * a 'network' error. That is a condition of the server, not of the question, so:
 *  - before any request has succeeded, the first request that fails that way stops the run (the
 *    server was never reachable: every other question would only repeat those retries);
 *  - after some have succeeded (a server that went away mid-run), CONNECTION_FAILURES_BEFORE_STOP
 *    requests in a row failing that way, with no success between them, stop it.
 * The rule counts requests, not seconds: each counted request stands for a whole retry chain, so
 * the run stops within about one chain (well under a minute) whatever the number of questions.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { StageError } from '../model/rows.ts';
import type { ChatProvider, Completion, CompletionRequest, ProviderErrorInfo } from '../model/provider.ts';
import { ProviderError } from '../providers/errors.ts';

/** Requests in a row that failed to connect (each after its retries) that stop a run that had been working. */
export const CONNECTION_FAILURES_BEFORE_STOP = 3;

/** The error kind of a run stopped this way; samples stored so far are kept and a resume carries on. */
export const UNREACHABLE_KIND = 'unreachable';

/** What the failure's text says went wrong, in a few words (Node's codes, else a browser's "Failed to fetch"). */
export function connectionFailure(message: string): string {
  if (/ECONNREFUSED/.test(message)) return 'connection refused';
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo/.test(message)) return 'its name does not resolve';
  if (/CERT|certificate|\bTLS\b|\bSSL\b|ERR_TLS|handshake/i.test(message)) return 'the TLS connection failed';
  if (/ECONNRESET|EPIPE|other side closed|socket hang up|UND_ERR_SOCKET/.test(message)) return 'the connection was dropped';
  if (/EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT/.test(message)) return 'no route to it';
  return 'no connection';
}

/** The server's host (and port) from a base URL, or the text itself when it is not a URL. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

/** Follows a run's requests in the order they end and says when the server is to be taken as gone. */
export class UnreachableWatch {
  private succeeded = false;
  private streak = 0;

  /** `server`: the base URL (or, without one, the preset's name) the message names. */
  constructor(private readonly server: string) {}

  /** A request came back: the server is there. */
  success(): void {
    this.succeeded = true;
    this.streak = 0;
  }

  /** A request failed after its retries: the error that stops the run, or undefined. */
  failure(error: StageError): StageError | undefined {
    if (error.kind !== 'network') {
      this.streak = 0;
      return undefined;
    }
    this.streak += 1;
    if (this.succeeded && this.streak < CONNECTION_FAILURES_BEFORE_STOP) return undefined;
    const how = this.succeeded
      ? `the last ${this.streak} requests all failed to connect after their retries`
      : 'the first request failed to connect after its retries and none has succeeded';
    return {
      kind: UNREACHABLE_KIND,
      retryable: true,
      message: `The server at ${hostOf(this.server)} cannot be reached (${connectionFailure(error.message)}): ${how}, so the run stopped rather than fail every question. ${error.message}`,
    };
  }
}

const infoOf = (e: unknown): ProviderErrorInfo | null => (typeof e === 'object' && e !== null && 'kind' in e && 'message' in e ? (e as ProviderErrorInfo) : null);

/**
 * A provider that follows its requests with an UnreachableWatch (for the callers that ask a
 * provider directly rather than through runSampling: a multiple-choice run's phases): once the
 * server is taken as gone, `stopped` says why, the requests in flight are aborted and none more is
 * sent, so the caller stops on that one cause instead of failing each question on its own.
 * At most `concurrency` requests are out at once, each holding its place through its retries (as
 * runSampling's questions do): the rule counts whole retry chains, so a caller that asks for every
 * question at once does not try each of them before the first chain has given up.
 */
export class StopWhenUnreachable implements ChatProvider {
  /** Why the server is taken as gone, once it is. */
  stopped: StageError | undefined;
  private readonly watch: UnreachableWatch;
  private readonly stop = new AbortController();
  private readonly limit: LimitFunction;

  constructor(
    private readonly inner: ChatProvider & { notes?: () => string[] },
    concurrency: number,
  ) {
    this.watch = new UnreachableWatch(inner.config.baseUrl || inner.config.preset);
    this.limit = pLimit(Math.max(1, Math.floor(concurrency)));
  }

  get config() {
    return this.inner.config;
  }

  notes(): string[] {
    return this.inner.notes?.() ?? [];
  }

  complete(request: CompletionRequest): Promise<Completion> {
    return this.limit(() => this.send(request));
  }

  private async send(request: CompletionRequest): Promise<Completion> {
    if (this.stopped) throw new ProviderError({ kind: 'aborted', message: this.stopped.message });
    const signal = request.signal ? AbortSignal.any([request.signal, this.stop.signal]) : this.stop.signal;
    try {
      const completion = await this.inner.complete({ ...request, signal });
      this.watch.success();
      return completion;
    } catch (e) {
      const info = infoOf(e);
      if (info && !this.stopped) {
        this.stopped = this.watch.failure({ kind: info.kind, message: info.message });
        if (this.stopped) this.stop.abort();
      }
      throw e;
    }
  }
}
