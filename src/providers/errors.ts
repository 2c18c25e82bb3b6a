/**
 * ProviderError: every way a request can fail, as one typed value with a message that says what
 * to do. Messages never contain the API key: every text that may echo it goes through scrubKey
 * (the one scrubber, secret-scrub.ts).
 */
import type { ProviderErrorInfo, ProviderErrorKind } from '../model/provider.ts';
import { scrubSecrets } from './secret-scrub.ts';
import { providerName } from './presets.ts';

export class ProviderError extends Error implements ProviderErrorInfo {
  readonly kind: ProviderErrorKind;
  readonly status: number | null;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;

  constructor(info: {
    kind: ProviderErrorKind;
    message: string;
    status?: number | null;
    retryable?: boolean;
    retryAfterMs?: number | null;
  }) {
    super(info.message);
    this.name = 'ProviderError';
    this.kind = info.kind;
    this.status = info.status ?? null;
    this.retryable = info.retryable ?? DEFAULT_RETRYABLE[info.kind];
    this.retryAfterMs = info.retryAfterMs ?? null;
  }

  /** Plain data for postMessage/Comlink (which would otherwise keep only name and message). */
  toInfo(): ProviderErrorInfo {
    return {
      kind: this.kind,
      status: this.status,
      retryable: this.retryable,
      message: this.message,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

const DEFAULT_RETRYABLE: Record<ProviderErrorKind, boolean> = {
  auth: false,
  quota: false,
  'rate-limit': true,
  server: true,
  timeout: true,
  network: true,
  'bad-request': false,
  'not-found': false,
  'bad-response': true,
  aborted: false,
  'hub-unreachable': false,
};

/**
 * Kinds that stop a whole run: they concern every request (a refused key, no credit, a model that
 * does not exist), so retrying or asking other questions cannot help until the user acts. A 400
 * is not among them: it usually concerns one prompt (a content policy, a context too long), so
 * the sampling stage fails that question and goes on (sampling.ts decides when 400s are general).
 */
export function stopsRun(e: ProviderErrorInfo): boolean {
  return e.kind === 'auth' || e.kind === 'quota' || e.kind === 'not-found' || e.kind === 'hub-unreachable';
}

export function isProviderError(e: unknown): e is ProviderError {
  return e instanceof ProviderError;
}

/** Removes the key in every form it can take (secret-scrub.ts), and key-like tokens, from a text. */
export function scrubKey(text: string, key?: string): string {
  return scrubSecrets(text, key);
}

/** Reads Retry-After (delta seconds or an HTTP date) or retry-after-ms; null when absent or unreadable. */
export function parseRetryAfter(headers: Headers, now: number): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/**
 * The advice that goes with each failure, naming the provider so the user knows which key or
 * account: by its display name (presets.ts providerName), never its internal id. The one place
 * provider failures are worded for people.
 */
export function adviceFor(kind: ProviderErrorKind, status: number | null, presetId: string): string {
  const s = status === null ? '' : ` (${status})`;
  const name = providerName(presetId);
  // At the start of a sentence: "The OpenAI-compatible server rejected …".
  // Brand names keep their own case ("vLLM", "llama.cpp server").
  const Name = name.startsWith('the ') ? `The ${name.slice(4)}` : name;
  switch (kind) {
    case 'auth':
      return `The key was refused${s}: check the key for ${name}.`;
    case 'quota':
      return `The account has run out of credit or quota${s}: add credit or raise the limit for ${name}, or wait for the quota to reset, then resume.`;
    case 'rate-limit':
      return `Rate limited${s} by ${name}: retrying later; lower the concurrency if this persists.`;
    case 'server':
      return `${Name} had a server error${s}: retrying; if it persists, try again later.`;
    case 'timeout':
      return `The request to ${name} timed out: retrying; raise the timeout for long replies.`;
    case 'network':
      return `Could not reach ${name}: check the base URL, the network, and (in a browser) that the server allows this page's origin (CORS).`;
    case 'bad-request':
      // Usually about one prompt (a content policy, a context too long); when every prompt is refused, the settings.
      return `${Name} rejected the request${s}: if it refuses every question, check the model name and the settings (temperature, top_p, max tokens).`;
    case 'not-found':
      return `Not found${s} at ${name}: check the model name and the base URL.`;
    case 'bad-response':
      return `${Name} sent a reply that could not be read${s}: retrying.`;
    case 'aborted':
      return 'Cancelled.';
    case 'hub-unreachable':
      return 'The Hugging Face hub cannot be reached from this browser: use exact match, or a shipped model, or download the model while online.';
  }
}

/**
 * A run resumed without a key it was started with (typed, not remembered, then the page was
 * reloaded): said before anything is sent, naming each provider and where it is.
 */
export function keyNotRememberedMessage(models: { preset: string; baseUrl: string }[]): string {
  const where = (url: string) => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  };
  const names = models.map((m) => `${providerName(m.preset)} (${where(m.baseUrl)})`).join(', ');
  return `The key for ${names} was not remembered on this device, so nothing was sent: enter it, then resume.`;
}

/** Kind from the HTTP status alone; wire formats refine 429s into quota vs rate-limit. */
export function kindFromStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 402) return 'quota';
  if (status === 404) return 'not-found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate-limit';
  if (status >= 500) return 'server';
  return 'bad-request';
}

/** Builds the error for a failed HTTP reply, with advice, the provider's own words, and no key. */
export function httpError(args: {
  status: number;
  kind?: ProviderErrorKind;
  detail: string;
  preset: string;
  apiKey?: string;
  retryAfterMs?: number | null;
}): ProviderError {
  const kind = args.kind ?? kindFromStatus(args.status);
  const detail = scrubKey(args.detail, args.apiKey).slice(0, 300).trim();
  const message = `${adviceFor(kind, args.status, args.preset)}${detail ? ` Provider said: ${detail}` : ''}`;
  return new ProviderError({ kind, status: args.status, message, retryAfterMs: args.retryAfterMs ?? null });
}
