/**
 * One small interface over every model API. Each wire format (OpenAI-compatible, Anthropic,
 * Gemini) is a request builder plus a response parser behind it; retry, backoff, rate limits,
 * timeouts and cancellation live once in http.ts for all of them.
 */

/**
 * The wire formats, by id: each is one module in providers/ and one row of its table
 * (providers/wire-formats.ts, which must have a row for every id here). Kept here, the floor below,
 * because a stored run's model names its format and is checked against this list when read back.
 */
export const WIRE_FORMAT_IDS = ['openai', 'anthropic', 'gemini'] as const;
export type WireFormatId = (typeof WIRE_FORMAT_IDS)[number];

/** Every kind a model can be: a wire format, or 'in-browser': a model run in this page (or in Node) with Transformers.js, no server (providers/in-browser/). */
export const PROVIDER_KINDS = [...WIRE_FORMAT_IDS, 'in-browser'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Where and how to reach a model. The key is held in memory and never serialised with a run. */
export interface ProviderConfig {
  kind: ProviderKind;
  /** Preset id ('openai', 'xai', 'mistral', 'openrouter', 'groq', 'together', 'deepseek', 'ollama', 'lmstudio', 'vllm', 'llamacpp', 'anthropic', 'gemini', 'in-browser'). */
  preset: string;
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Requests in flight at once for this provider. */
  concurrency?: number;
  /** Per-request timeout in ms. */
  timeoutMs?: number;
  maxRetries?: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerationSettings {
  temperature: number;
  topP?: number;
  maxTokens: number;
  /** Ask for JSON output where the API has a JSON mode (judge calls). */
  json?: boolean;
  /** Ask for token log-probabilities where supported. */
  logprobs?: boolean;
  topLogprobs?: number;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  top?: { token: string; logprob: number }[];
}

export interface Reply {
  text: string;
  finishReason: string | null;
  logprobs?: TokenLogprob[];
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** The result of one request: up to `n` replies. */
export interface Completion {
  replies: Reply[];
  usage: Usage;
  /** Wall time of the successful attempt, ms. */
  ms: number;
  /** Settings actually sent (after capability adjustments). */
  effective: Partial<GenerationSettings> & { n: number };
}

export interface CompletionRequest {
  messages: ChatMessage[];
  settings: GenerationSettings;
  /** Replies wanted from this one request (the provider may return fewer). */
  n: number;
  signal?: AbortSignal;
}

export interface ChatProvider {
  readonly config: ProviderConfig;
  complete(request: CompletionRequest): Promise<Completion>;
}

/** Why a request failed, as a value that crosses worker boundaries (see errors.ts). */
export type ProviderErrorKind =
  | 'auth'
  | 'quota'
  | 'rate-limit'
  | 'server'
  | 'timeout'
  | 'network'
  | 'bad-request'
  | 'not-found'
  | 'bad-response'
  | 'aborted'
  /** An in-page model's files had to come from the Hugging Face hub and the hub cannot be reached at all (model/model-hub.ts). */
  | 'hub-unreachable';

/** Plain-data form of a ProviderError (what a worker posts; never contains the key). */
export interface ProviderErrorInfo {
  kind: ProviderErrorKind;
  status: number | null;
  retryable: boolean;
  message: string;
  retryAfterMs: number | null;
}

/** What one HTTP attempt did, reported while a request runs (progress counters). */
export type RequestEvent =
  | { type: 'retrying'; attempt: number; delayMs: number; error: ProviderErrorInfo }
  | { type: 'failed'; error: ProviderErrorInfo }
  | { type: 'done'; replies: number; usage: Usage; ms: number };

/** Extras the sampling orchestrator uses; `createProvider` returns this. */
export interface SamplingProvider extends ChatProvider {
  /** Replies one request may ask for now (static capability, lowered by run-time findings). */
  maxN(settings: GenerationSettings): number;
  /**
   * Exactly one logical request (retried per the policy in http.ts): returns the replies that came
   * back, possibly fewer than asked; never makes up the shortfall (the caller does, so that every
   * reply received is kept even when a later request fails).
   */
  completeOnce(request: CompletionRequest & { onEvent?: (e: RequestEvent) => void }): Promise<Completion>;
  /** Settings as they will be sent, after capability adjustments (stored with a run). */
  effectiveSettings(settings: GenerationSettings, n: number): Partial<GenerationSettings> & { n: number };
  /** Run-time capability findings so far, in words ("returned 1 of 5 choices: n limited to 1"). */
  notes(): string[];
}
