/**
 * What each provider and model family accepts, from the research notes
 * (shared/research/providers-peers-datasets.md, A.1–A.10). The table is a starting point:
 * the run-time check in index.ts lowers the n limit when a provider returns fewer choices.
 */
import type { GenerationSettings } from '../model/provider.ts';
import { MAX_REPLIES_PER_CALL } from './in-browser/models.ts';

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

const BASE: Capabilities = {
  maxN: 1,
  temperatureRange: [0, 2],
  temperatureWithTopP: true,
  logprobs: false,
  rejectsSampling: false,
  unknown: false,
};

function openaiFamily(model: string): Partial<Capabilities> {
  // o1/o3/o4 and gpt-5 (not gpt-5.x chat variants with reasoning off) reject temperature, top_p, logprobs.
  if (/^(o\d)(-|$)/.test(model) || /^gpt-5(-mini|-nano)?(-\d{4}|$)/.test(model)) {
    return { maxN: 128, rejectsSampling: true, logprobs: false };
  }
  return { maxN: 128, logprobs: true };
}

function geminiFamily(model: string): Partial<Capabilities> {
  // candidateCount > 1 returns 400 on Gemini 3.x and was refused on 1.5; 2.x allows up to 8.
  const m = /gemini-(\d+)/.exec(model);
  const major = m ? Number(m[1]) : 0;
  return { maxN: major === 2 ? 8 : 1, temperatureRange: [0, 2], logprobs: false };
}

const BY_PRESET: Record<string, (model: string) => Partial<Capabilities>> = {
  openai: openaiFamily,
  xai: () => ({ maxN: 128, logprobs: true }),
  mistral: () => ({ maxN: 128, temperatureRange: [0, 1.5] }),
  // OpenRouter was seen to ignore n; the run-time check would find it, but starting at 1 saves a round.
  openrouter: () => ({ maxN: 1 }),
  groq: () => ({ maxN: 1 }),
  together: () => ({ maxN: 128, temperatureRange: [0, 1], logprobs: true }),
  deepseek: (model) => ({ maxN: 1, logprobs: !/reasoner/.test(model) }),
  ollama: () => ({ maxN: 1 }),
  lmstudio: () => ({ maxN: 1 }),
  vllm: () => ({ maxN: 128, logprobs: true }),
  llamacpp: () => ({ maxN: 1, logprobs: true }),
  anthropic: () => ({ maxN: 1, temperatureRange: [0, 1], temperatureWithTopP: false }),
  gemini: geminiFamily,
  // A question's samples are rows of one batch.
  'in-browser': () => ({ maxN: MAX_REPLIES_PER_CALL }),
};

/**
 * A server the table does not know (the "custom" preset, or an id from elsewhere) on the OpenAI
 * wire format: n and logprobs are tried, and the run-time checks lower them where refused.
 */
const UNKNOWN: Partial<Capabilities> = { maxN: 128, logprobs: true, unknown: true };

export function capabilitiesFor(preset: string, model: string): Capabilities {
  const family = Object.prototype.hasOwnProperty.call(BY_PRESET, preset) ? BY_PRESET[preset] : undefined;
  return { ...BASE, ...(family ? family(model) : UNKNOWN) };
}

/**
 * The settings as they will be sent: temperature clamped to the range, top_p dropped where it may not
 * go with temperature (or equals the default 1, which changes nothing), sampling parameters dropped for
 * reasoning models, logprobs dropped where unsupported. Returned and stored so a run says what it used.
 */
export function effectiveSettings(caps: Capabilities, s: GenerationSettings, n: number): Partial<GenerationSettings> & { n: number } {
  const out: Partial<GenerationSettings> & { n: number } = { n, maxTokens: s.maxTokens };
  if (!caps.rejectsSampling) {
    const [lo, hi] = caps.temperatureRange;
    out.temperature = Math.min(hi, Math.max(lo, s.temperature));
    if (s.topP !== undefined && s.topP !== 1 && caps.temperatureWithTopP) out.topP = s.topP;
  }
  if (s.logprobs && caps.logprobs) {
    out.logprobs = true;
    if (s.topLogprobs !== undefined) out.topLogprobs = Math.min(20, Math.max(0, s.topLogprobs));
  }
  if (s.json) out.json = true;
  return out;
}
