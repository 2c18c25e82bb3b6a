/**
 * The in-browser provider as a SamplingProvider, so the sampling stage treats it like any API:
 * the same cache keys (preset 'in-browser', the model id, no base URL), progress, pause, cancel
 * and resume. It sits over a `ReplyGenerator` — the generation worker's client in the browser,
 * the library itself in Node — and sends it one request at a time, since one model runs one
 * batch at a time; a request's n replies are the rows of one batch.
 */
import { ProviderError } from '../errors.ts';
import type { Completion, CompletionRequest, GenerationSettings, ProviderConfig, RequestEvent, SamplingProvider } from '../../model/provider.ts';
import { IN_BROWSER_PRESET, MAX_REPLIES_PER_CALL } from './models.ts';
import type { GenerateRequest, GenerateResult } from './generate.ts';
import { isHubUnreachable } from '../../model/model-load-error.ts';
import { errorMessage } from '../../model/app-error.ts';

/** Turns a request into replies: the model is loaded on first use. */
export interface ReplyGenerator {
  generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResult>;
  /** What the run should know about how the model runs ("generated on WASM: WebGPU is not available"). */
  notes?(): string[];
}

export function isInBrowserModel(config: Pick<ProviderConfig, 'preset'>): boolean {
  return config.preset === IN_BROWSER_PRESET;
}

/** Settings as the model uses them: temperature ≥ 0 (0 is greedy), top_p only below 1, no logprobs or JSON mode. */
export function inBrowserSettings(s: GenerationSettings, n: number): Partial<GenerationSettings> & { n: number } {
  const out: Partial<GenerationSettings> & { n: number } = { n, maxTokens: s.maxTokens, temperature: Math.max(0, s.temperature) };
  if (s.topP !== undefined && s.topP < 1 && s.temperature > 0) out.topP = s.topP;
  return out;
}

const aborted = () => new ProviderError({ kind: 'aborted', retryable: false, message: 'Generation was cancelled.' });

function asProviderError(e: unknown, model: string): ProviderError {
  if (e instanceof ProviderError) return e;
  if ((e as { name?: string })?.name === 'AbortError') return aborted();
  const message = errorMessage(e);
  // A model that cannot be loaded fails every request the same way: 'not-found' stops the run.
  // (The name survives a worker boundary, where the class does not.)
  // The hub unreachable: its own kind, said in its own words (model/model-hub.ts); it stops the run like a missing model.
  if (isHubUnreachable(e)) return new ProviderError({ kind: 'hub-unreachable', retryable: false, message });
  if ((e as { name?: string })?.name === 'ModelLoadError') {
    return new ProviderError({ kind: 'not-found', retryable: false, message: `The in-browser model ${message}` });
  }
  return new ProviderError({ kind: 'server', retryable: true, message: `The in-browser model "${model}" failed to generate: ${message}` });
}

export function createInBrowserProvider(config: ProviderConfig, generator: ReplyGenerator, options: { maxN?: number } = {}): SamplingProvider {
  const maxN = Math.max(1, Math.floor(options.maxN ?? MAX_REPLIES_PER_CALL));
  // One request at a time: each waits for the one before it.
  let queue: Promise<unknown> = Promise.resolve();

  function completeOnce(request: CompletionRequest & { onEvent?: (e: RequestEvent) => void }): Promise<Completion> {
    const n = Math.max(1, Math.min(request.n, maxN));
    const effective = inBrowserSettings(request.settings, n);
    const run = async (): Promise<Completion> => {
      if (request.signal?.aborted) throw aborted();
      try {
        const result = await generator.generate(
          { messages: request.messages, n, temperature: effective.temperature ?? 0, topP: effective.topP, maxTokens: request.settings.maxTokens },
          request.signal,
        );
        const usage = { inputTokens: result.inputTokens, outputTokens: result.outputTokens };
        const replies = result.replies.slice(0, n).map((r) => ({ text: r.text, finishReason: r.finishReason }));
        request.onEvent?.({ type: 'done', replies: replies.length, usage, ms: result.ms });
        return { replies, usage, ms: result.ms, effective };
      } catch (e) {
        const error = asProviderError(e, config.model);
        if (error.kind !== 'aborted') request.onEvent?.({ type: 'failed', error: error.toInfo() });
        throw error;
      }
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  }

  async function complete(request: CompletionRequest): Promise<Completion> {
    const all: Completion[] = [];
    let got = 0;
    while (got < request.n) {
      const c = await completeOnce({ ...request, n: request.n - got });
      all.push(c);
      got += c.replies.length;
      if (c.replies.length === 0) throw new ProviderError({ kind: 'bad-response', retryable: true, message: 'The in-browser model returned no replies.' });
    }
    return {
      replies: all.flatMap((c) => c.replies).slice(0, request.n),
      usage: { inputTokens: all.reduce((s, c) => s + c.usage.inputTokens, 0), outputTokens: all.reduce((s, c) => s + c.usage.outputTokens, 0) },
      ms: all.reduce((s, c) => s + c.ms, 0),
      effective: { ...all[0].effective, n: request.n },
    };
  }

  return {
    // One request in flight: the sampling stage's concurrency follows it (sample-stage.ts).
    config: { ...config, apiKey: undefined, baseUrl: '', concurrency: 1 },
    complete,
    completeOnce,
    maxN: () => maxN,
    effectiveSettings: (settings, n) => inBrowserSettings(settings, Math.min(n, maxN)),
    notes: () => generator.notes?.() ?? [],
  };
}
