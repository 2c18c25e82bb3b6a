/**
 * What each provider and model family accepts, from the research notes
 * (shared/research/providers-peers-datasets.md, A.1–A.10): the presets' table here, and for a
 * preset not in it what its wire format accepts (each format's module). The table is a starting
 * point: the run-time check in index.ts lowers the n limit when a provider returns fewer choices.
 */
import type { GenerationSettings, ProviderKind } from '../model/provider.ts';
import { MAX_REPLIES_PER_CALL } from './in-browser/models.ts';
import { getPreset } from './presets.ts';
import type { Capabilities } from './wire-format.ts';
import { WIRE_FORMATS, type WireFormats, findWireFormat } from './wire-formats.ts';

export type { Capabilities } from './wire-format.ts';

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
  // A question's samples are rows of one batch.
  'in-browser': () => ({ maxN: MAX_REPLIES_PER_CALL }),
};

/**
 * The table's entry for the preset; else what its wire format accepts (Anthropic's and Gemini's
 * presets, and the "custom" preset or an id from elsewhere on the OpenAI wire format, whose n and
 * logprobs are tried and lowered at run time where refused). `kind` is the preset's own unless
 * given (a stored model names its kind); `formats` is the table of formats to look it up in.
 */
export function capabilitiesFor(
  preset: string,
  model: string,
  kind: ProviderKind | undefined = getPreset(preset)?.kind,
  formats: WireFormats = WIRE_FORMATS,
): Capabilities {
  const family = Object.prototype.hasOwnProperty.call(BY_PRESET, preset) ? BY_PRESET[preset] : undefined;
  // A kind without a format of its own (in-browser, outside its preset) gets the OpenAI-compatible guess.
  const format = (kind && findWireFormat(kind, formats)) || WIRE_FORMATS.openai;
  return { ...BASE, ...(family ? family(model) : format.capabilities(model)) };
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
