/**
 * The providers a user can pick: which wire format each speaks, its default base URL, the
 * environment variable the CLI reads its key from, and whether it needs a key at all
 * (local servers usually do not).
 */
import type { ProviderKind } from '../model/provider.ts';

export interface Preset {
  id: string;
  label: string;
  kind: ProviderKind;
  baseUrl: string;
  keyEnv: string | null;
  needsKey: boolean;
  /** Uses `max_completion_tokens` (OpenAI's current name) instead of the older `max_tokens`. */
  maxCompletionTokens?: boolean;
  local?: boolean;
  /**
   * A server the app knows nothing about (no default address, no entry in the capability table):
   * the user gives its base URL, and what it accepts is found out at run time.
   */
  custom?: boolean;
  /**
   * The host runs its wire format's batch service (wire-format.ts WireBatch): other hosts of the
   * OpenAI format differ or have none.
   */
  batch?: boolean;
}

export const PRESETS: Record<string, Preset> = {
  openai: { id: 'openai', label: 'OpenAI', kind: 'openai', baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', needsKey: true, maxCompletionTokens: true, batch: true },
  xai: { id: 'xai', label: 'xAI', kind: 'openai', baseUrl: 'https://api.x.ai/v1', keyEnv: 'XAI_API_KEY', needsKey: true },
  mistral: { id: 'mistral', label: 'Mistral', kind: 'openai', baseUrl: 'https://api.mistral.ai/v1', keyEnv: 'MISTRAL_API_KEY', needsKey: true },
  openrouter: { id: 'openrouter', label: 'OpenRouter', kind: 'openai', baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY', needsKey: true },
  groq: { id: 'groq', label: 'Groq', kind: 'openai', baseUrl: 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY', needsKey: true },
  together: { id: 'together', label: 'Together', kind: 'openai', baseUrl: 'https://api.together.xyz/v1', keyEnv: 'TOGETHER_API_KEY', needsKey: true },
  deepseek: { id: 'deepseek', label: 'DeepSeek', kind: 'openai', baseUrl: 'https://api.deepseek.com', keyEnv: 'DEEPSEEK_API_KEY', needsKey: true },
  ollama: { id: 'ollama', label: 'Ollama (local)', kind: 'openai', baseUrl: 'http://localhost:11434/v1', keyEnv: null, needsKey: false, local: true },
  lmstudio: { id: 'lmstudio', label: 'LM Studio (local)', kind: 'openai', baseUrl: 'http://localhost:1234/v1', keyEnv: null, needsKey: false, local: true },
  vllm: { id: 'vllm', label: 'vLLM (local)', kind: 'openai', baseUrl: 'http://localhost:8000/v1', keyEnv: 'VLLM_API_KEY', needsKey: false, local: true },
  llamacpp: { id: 'llamacpp', label: 'llama.cpp server (local)', kind: 'openai', baseUrl: 'http://localhost:8080/v1', keyEnv: null, needsKey: false, local: true },
  anthropic: { id: 'anthropic', label: 'Anthropic', kind: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', keyEnv: 'ANTHROPIC_API_KEY', needsKey: true, batch: true },
  gemini: { id: 'gemini', label: 'Google Gemini', kind: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta', keyEnv: 'GEMINI_API_KEY', needsKey: true, batch: true },
  // Its own choice, so that pointing another preset at some server does not borrow that preset's
  // n limit, prices and batch service. The CLI reads its key from SEMECE_API_KEY.
  custom: { id: 'custom', label: 'Another OpenAI-compatible server', kind: 'openai', baseUrl: '', keyEnv: null, needsKey: false, custom: true },
  // A model run with Transformers.js in the page's generation worker (in Node by the CLI): no server, no key (providers/in-browser/).
  'in-browser': { id: 'in-browser', label: 'In this browser (no key)', kind: 'in-browser', baseUrl: '', keyEnv: null, needsKey: false, local: true },
};

export function getPreset(id: string): Preset | undefined {
  return Object.prototype.hasOwnProperty.call(PRESETS, id) ? PRESETS[id] : undefined;
}

export function presetIds(): string[] {
  return Object.keys(PRESETS);
}

/**
 * A provider as a sentence names it, for people: its label without the "(local)" tag, so that
 * messages say "OpenAI" or "vLLM", never an internal id such as "custom"; an id the app does not
 * know is kept as given (a record from another version, say).
 */
export function providerName(id: string): string {
  if (id === 'custom') return 'the OpenAI-compatible server';
  if (id === 'in-browser') return 'the in-browser model';
  const preset = getPreset(id);
  return preset ? preset.label.replace(/ \(local\)$/, '') : id;
}

/** A model as people read it: "gpt-4o-mini on OpenAI", "my-model on the OpenAI-compatible server". */
export function modelOnProvider(preset: string, model: string): string {
  return `${model} on ${providerName(preset)}`;
}
