/**
 * What every wire format shares: the context a request is built in, and careful JSON reading
 * (a 200 with a truncated or HTML body is a retryable bad-response, not a crash).
 */
import { ProviderError, adviceFor, scrubKey } from './errors.ts';
import type { Capabilities } from './capabilities.ts';
import type { ChatMessage, GenerationSettings, ProviderKind, Reply, Usage } from '../model/provider.ts';

export interface WireContext {
  preset: string;
  baseUrl: string;
  model: string;
  apiKey?: string;
  caps: Capabilities;
  /** OpenAI wire: send `max_completion_tokens` instead of `max_tokens`. */
  maxCompletionTokens?: boolean;
}

/** What a wire format's parser returns for one request. */
export interface ParsedCompletion {
  replies: Reply[];
  usage: Usage;
}

export interface WireInput {
  messages: ChatMessage[];
  effective: Partial<GenerationSettings> & { n: number };
}

/**
 * The headers of every request of a wire format, the key among them: the one place a key is
 * attached, for interactive requests and batch services alike (no key: none is sent).
 *  - OpenAI-compatible: only Authorization and Content-Type, since extra headers fail CORS
 *    preflights at some of its hosts.
 *  - Anthropic: the direct-browser-access header is what lets a page call the API with the
 *    user's key.
 *  - Gemini: the key goes in x-goog-api-key, never in the URL, so it stays out of logs and errors.
 */
export function wireHeaders(kind: ProviderKind, apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (kind === 'anthropic') Object.assign(headers, { 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' });
  if (!apiKey) return headers;
  if (kind === 'openai') headers.authorization = `Bearer ${apiKey}`;
  else if (kind === 'anthropic') headers['x-api-key'] = apiKey;
  else headers['x-goog-api-key'] = apiKey;
  return headers;
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

export function parseJsonBody(text: string, ctx: WireContext, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Scrubbed before it is cut, so a key straddling the cut is still seen whole.
    const snippet = scrubKey(text.slice(0, 1000), ctx.apiKey).slice(0, 120).replace(/\s+/g, ' ');
    throw new ProviderError({
      kind: 'bad-response',
      status,
      message: `${adviceFor('bad-response', status, ctx.preset)} The body was not JSON: "${snippet}"`,
    });
  }
}

/** Error bodies are JSON for most APIs but HTML for gateways (e.g. a Cloudflare 403 page). */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function badShape(ctx: WireContext, status: number, what: string): ProviderError {
  return new ProviderError({
    kind: 'bad-response',
    status,
    message: `${adviceFor('bad-response', status, ctx.preset)} ${what}`,
  });
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** A short readable excerpt of a non-JSON error body (HTML tags stripped). */
export function textExcerpt(text: string): string {
  return text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * An HTTP error reply's `error` object (all three wire formats nest it so) and the message to
 * show: the provider's own, or an excerpt of the raw body when it is not that JSON (a proxy's
 * HTML page, say).
 */
export function errorBody(text: string): { err: Record<string, unknown> | undefined; detail: string } {
  const json = tryJson(text);
  const err = isRecord(json) && isRecord(json.error) ? json.error : undefined;
  return { err, detail: err ? String(err.message ?? '') : textExcerpt(text) };
}
