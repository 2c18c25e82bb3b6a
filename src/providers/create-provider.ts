/**
 * createProvider: the one entry point from a ProviderConfig to a working ChatProvider. It takes the
 * config's wire format from the formats' table (wire-formats.ts), applies the capability table,
 * sends through the shared retry policy (http.ts), and learns at run time: fewer choices than asked
 * lowers the n limit for the rest of the run; a request rejected for `n`/`candidateCount`,
 * temperature or logprobs is re-sent once without it, and noted.
 */
import { baseUrlProblem } from './base-url.ts';
import { type Capabilities, capabilitiesFor, effectiveSettings } from './capabilities.ts';
import { ProviderError } from './errors.ts';
import { DEFAULT_POLICY, type HttpDeps, HttpClient, type RetryPolicy, realDeps } from './http.ts';
import { probeFirstRequest } from './n-probe.ts';
import { getPreset, providerName } from './presets.ts';
import { secretScrubber } from './secret-scrub.ts';
import type { Completion, CompletionRequest, GenerationSettings, ProviderConfig, RequestEvent, SamplingProvider } from '../model/provider.ts';
import { badShape } from './wire.ts';
import { type ParsedCompletion, type WireContext, chatCall } from './wire-format.ts';
import { WIRE_FORMATS, type WireFormats, wireFormat } from './wire-formats.ts';
import type { WireCall } from './http.ts';

export { ProviderError, stopsRun, scrubKey } from './errors.ts';
export { PRESETS, getPreset, presetIds } from './presets.ts';
export { baseUrlProblem, redactedUrl } from './base-url.ts';
export { capabilitiesFor } from './capabilities.ts';

export interface ProviderDeps {
  http?: Partial<HttpDeps>;
  policy?: Partial<RetryPolicy>;
  /** The wire formats to pick the config's kind from (wire-formats.ts; a test adds one of its own). */
  formats?: WireFormats;
}

const N_REJECTED = /only one completion|multiple candidates|candidate_?count|\bn must be\b|'n'|"n"/i;
const SAMPLING_REJECTED = /unsupported (parameter|value).*(temperature|top_p)|(temperature|top_p).*(not supported|unsupported)/i;
const LOGPROBS_REJECTED = /logprobs?.*(not (enabled|supported)|unsupported)|unsupported.*logprobs?/i;

export const DEFAULT_CONCURRENCY = 8;

export function createProvider(config: ProviderConfig, deps: ProviderDeps = {}): SamplingProvider {
  // The in-browser model has no HTTP wire: it is built over a generator (providers/in-browser/in-browser-provider.ts).
  if (config.kind === 'in-browser') {
    throw new ProviderError({ kind: 'bad-request', retryable: false, message: `The in-browser model "${config.model}" can sample answers only; it cannot serve as a judge or a connection test here.` });
  }
  const formats = deps.formats ?? WIRE_FORMATS;
  const format = wireFormat(config.kind, formats);
  const preset = getPreset(config.preset);
  const baseUrl = config.baseUrl || preset?.baseUrl || '';
  // Refused before any request: a URL with credentials would only fail, retried, and be stored.
  const problem = baseUrlProblem(baseUrl, `The base URL for ${providerName(config.preset)}`);
  if (problem) throw new ProviderError({ kind: 'bad-request', retryable: false, message: problem });
  const caps: Capabilities = capabilitiesFor(config.preset, config.model, config.kind, formats);
  const policy: RetryPolicy = {
    ...DEFAULT_POLICY,
    ...deps.policy,
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
    ...(config.maxRetries !== undefined ? { maxRetries: config.maxRetries } : {}),
  };
  const http = new HttpClient(
    config.preset,
    config.apiKey,
    config.concurrency ?? DEFAULT_CONCURRENCY,
    policy,
    { ...realDeps(), ...deps.http },
  );
  const ctx: WireContext = {
    preset: config.preset,
    baseUrl,
    model: config.model,
    apiKey: config.apiKey,
    caps,
    maxCompletionTokens: preset?.maxCompletionTokens ?? false,
  };
  // A server may write the key it was sent into a reply: removed before any caller stores or
  // caches the reply, and only the key (a reply that does not hold it comes back unchanged).
  const scrubReply = secretScrubber([config.apiKey], { only: true });
  const notes: string[] = [];
  const note = (text: string) => {
    if (!notes.includes(text)) notes.push(text);
  };

  async function sendOnce(request: CompletionRequest, n: number, onEvent?: (e: RequestEvent) => void): Promise<Completion> {
    const effective = effectiveSettings(caps, request.settings, n);
    const base = chatCall(format, ctx, { messages: request.messages, effective });
    const call: WireCall<ParsedCompletion> = {
      ...base,
      parse: (text, status) => {
        const parsed = base.parse(text, status);
        // No choices at all is a broken reply, not a short one: retry it like malformed JSON.
        if (parsed.replies.length === 0) throw badShape(ctx, status, 'The reply had no choices.');
        return parsed;
      },
      error: (status, headers, text, retryAfterMs) => {
        const e = base.error(status, headers, text, retryAfterMs);
        // llama.cpp answers n ≠ 1 with a 500; a retry would fail the same way, so re-send with n = 1 instead.
        if (n > 1 && N_REJECTED.test(e.message)) return new ProviderError({ ...e, kind: 'bad-request', retryable: false, message: e.message });
        return e;
      },
    };
    const { value, ms } = await http.send(call, { signal: request.signal, onEvent });
    const replies = value.replies.slice(0, n).map((r) => {
      const text = scrubReply(r.text);
      return text === r.text ? r : { ...r, text };
    });
    onEvent?.({ type: 'done', replies: replies.length, usage: value.usage, ms });
    return { replies, usage: value.usage, ms, effective };
  }

  async function completeOnce(request: CompletionRequest & { onEvent?: (e: RequestEvent) => void }): Promise<Completion> {
    for (;;) {
      const n = Math.max(1, Math.min(request.n, caps.maxN));
      try {
        const result = await sendOnce(request, n, request.onEvent);
        if (result.replies.length < n) {
          caps.maxN = Math.max(1, result.replies.length);
          note(`Asked for ${n} replies in one request, got ${result.replies.length}: n limited to ${caps.maxN} for the rest of the run.`);
        }
        return result;
      } catch (e) {
        if (!(e instanceof ProviderError) || e.kind !== 'bad-request') throw e;
        if (n > 1 && N_REJECTED.test(e.message)) {
          caps.maxN = 1;
          note('The model refused several replies per request: one reply per request from now on.');
        } else if (!caps.rejectsSampling && SAMPLING_REJECTED.test(e.message)) {
          caps.rejectsSampling = true;
          note('The model refused temperature/top_p: sent without them (its defaults apply).');
        } else if (caps.logprobs && request.settings.logprobs && LOGPROBS_REJECTED.test(e.message)) {
          caps.logprobs = false;
          note('The model refused logprobs: sent without them.');
        } else throw e;
      }
    }
  }

  // A server the table does not know sends its first several-reply request alone (n-probe.ts).
  const completeOnceProbed = probeFirstRequest(caps, completeOnce, note);

  /** Exactly `request.n` replies: split by the n limit, in parallel, making up any shortfall. */
  async function complete(request: CompletionRequest): Promise<Completion> {
    const all: Completion[] = [];
    let got = 0;
    while (got < request.n) {
      const chunks: number[] = [];
      for (let left = request.n - got; left > 0; left -= Math.min(left, caps.maxN)) chunks.push(Math.min(left, caps.maxN));
      const results = await Promise.all(chunks.map((k) => completeOnceProbed({ ...request, n: k })));
      for (const r of results) {
        all.push(r);
        got += r.replies.length;
      }
    }
    return {
      replies: all.flatMap((c) => c.replies).slice(0, request.n),
      usage: {
        inputTokens: all.reduce((s, c) => s + c.usage.inputTokens, 0),
        outputTokens: all.reduce((s, c) => s + c.usage.outputTokens, 0),
      },
      ms: all.reduce((s, c) => Math.max(s, c.ms), 0),
      effective: { ...all[0].effective, n: request.n },
    };
  }

  return {
    // The key stays inside the closure: a consumer that serialises `config` cannot leak it.
    config: { ...config, apiKey: undefined },
    complete,
    completeOnce: completeOnceProbed,
    maxN: () => caps.maxN,
    effectiveSettings: (settings: GenerationSettings, n: number) => effectiveSettings(caps, settings, Math.min(n, caps.maxN)),
    notes: () => [...notes],
  };
}
