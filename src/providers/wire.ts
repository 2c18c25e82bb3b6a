/**
 * What every wire format shares: careful JSON reading (a 200 with a truncated or HTML body is a
 * retryable bad-response, not a crash) and the reading of an error body. What a format is and the
 * context a request is built in: wire-format.ts.
 */
import { ProviderError, adviceFor, scrubKey } from './errors.ts';
import type { WireContext } from './wire-format.ts';

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
