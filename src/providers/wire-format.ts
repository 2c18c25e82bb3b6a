/**
 * What a wire format is: one object implementing one interface (the shape of the Vercel AI SDK's
 * providers). Each format is one module (openai.ts, anthropic.ts, gemini.ts) exporting such an
 * object, and the table of them (wire-formats.ts) is the only place that picks one by its id:
 * createProvider, the capability table, the batch request and result lines and the batch services
 * all ask the table, never test the id themselves. What every format shares stays outside them:
 * the HTTP client (retries, timeouts, the key scrubbed from every message, http.ts), the advice
 * worded per error kind (errors.ts), and careful JSON reading (wire.ts).
 */
import type { ChatMessage, GenerationSettings, Reply, Usage } from '../model/provider.ts';
import type { BatchService, ParsedLine } from './batch-service.ts';
import type { ProviderError } from './errors.ts';
import type { HttpDeps, WireCall } from './http.ts';

/** What a model accepts; the table in capabilities.ts, each format's own in its module. */
export interface Capabilities {
  /** Replies one request can return (1 = no `n`, so parallel requests). */
  maxN: number;
  temperatureRange: [number, number];
  /** False where sending both is a 400 (newer Anthropic models) — then only temperature is sent. */
  temperatureWithTopP: boolean;
  logprobs: boolean;
  /** Reasoning models reject temperature/top_p other than the default: they are left out. */
  rejectsSampling: boolean;
  /**
   * The table has no entry for this server, so `maxN` and `logprobs` are guesses to try: the first
   * request asking for several replies goes alone, and its answer settles `maxN` (n-probe.ts).
   */
  unknown: boolean;
}

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

/** Where a batch service sends its calls: the model's context (no key in it), the key, test clocks. */
export interface BatchCallsOptions {
  ctx: WireContext;
  apiKey?: string;
  deps?: Partial<HttpDeps>;
}

/** A format's batch service: its request and result lines, its limits, and the service itself. */
export interface WireBatch {
  /** What one batch may hold (the service's documented limits). */
  limits: { maxRequests: number; maxBytes: number };
  /** One line of a batch request file, around the same body an interactive request sends. */
  requestLine(customId: string, body: Record<string, unknown>): Record<string, unknown>;
  /** One result line (already a JSON object) → an outcome, or exactly what is wrong with it. */
  resultLine(line: Record<string, unknown>): ParsedLine;
  /** The service (submit, status, results), its calls sent through the providers' HTTP client. */
  service(opts: BatchCallsOptions): BatchService;
}

export interface WireFormat {
  /** Its id: ProviderConfig.kind, a preset's kind, a stored model's kind (model/provider.ts WIRE_FORMAT_IDS). */
  readonly id: string;
  /**
   * The headers of every request, the key among them: the one place a key is attached, for
   * interactive requests and batch services alike (no key: none is sent).
   */
  headers(apiKey: string | undefined): Record<string, string>;
  /** Where an interactive request goes. */
  url(ctx: WireContext): string;
  /** The interactive request's body (a batch line wraps the same body). */
  body(ctx: WireContext, input: WireInput): Record<string, unknown>;
  /** A 2xx reply's body → replies and usage, or a ProviderError (malformed JSON, an error in a 200). */
  parse(ctx: WireContext, text: string, status: number): ParsedCompletion;
  /** A non-2xx reply → a ProviderError of the right kind (429s refined into quota vs rate limit). */
  error(ctx: WireContext, status: number, text: string, retryAfterMs: number | null): ProviderError;
  /**
   * What a server speaking this format accepts when the preset table has no entry for it (the
   * table's own entries win: capabilities.ts).
   */
  capabilities(model: string): Partial<Capabilities>;
  /** Why replies carry no log-probabilities on this format, in words for a report; none when they can. */
  noLogprobs?: string;
  /** Its batch service, where the format has one. */
  batch?: WireBatch;
}

/** One interactive request of a format, as the HTTP client sends it. */
export function chatCall(format: WireFormat, ctx: WireContext, input: WireInput): WireCall<ParsedCompletion> {
  return {
    url: format.url(ctx),
    headers: format.headers(ctx.apiKey),
    body: format.body(ctx, input),
    parse: (text, status) => format.parse(ctx, text, status),
    error: (status, _headers, text, retryAfterMs) => format.error(ctx, status, text, retryAfterMs),
  };
}
