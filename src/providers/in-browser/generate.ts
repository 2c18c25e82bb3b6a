/**
 * Text generation with Transformers.js, shared by the browser's generation worker and by Node
 * (CLI, tests, benchmarks): the model and tokenizer loaded once, the chat template applied, and
 * a question's n replies generated together as n rows of one batch. Transformers.js's settings,
 * progress events and load options are transformers-env.ts's, as for every model the app runs.
 *
 * What the library's generate() does not do for us, done here:
 * - sampling: its multinomial sampler keeps only the top 50 tokens by default, has no top_p (its
 *   TopPLogitsWarper is declared but not applied in 4.x), draws from one global generator, and
 *   ranks tokens with an ONNX Runtime TopK session created with no execution provider, which in a
 *   browser that exposes WebGPU without an adapter fails. So the token is drawn here, by a logits
 *   processor (temperature, then the nucleus of mass top_p, from the whole vocabulary, with a
 *   Mersenne Twister of this request's own), which leaves only that token possible; the library
 *   runs in greedy mode and takes it.
 * - finished rows: the batch loop stops only when every row's last token is an end token, and
 *   keeps extending rows that ended before; a row that has ended is held at its end token, so
 *   its reply stays what it was when it ended.
 * - cancel: an AbortSignal interrupts the loop at the next token (InterruptableStoppingCriteria).
 */
import {
  AutoModelForCausalLM,
  AutoTokenizer,
  InterruptableStoppingCriteria,
  LogitsProcessor,
  random,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  type Tensor,
} from '@huggingface/transformers';
import { errorMessage } from '../../model/app-error.ts';
import type { ModelProgress } from '../../model/progress.ts';
import { applyEnv, loadOptions, type TransformersSource } from '../../transformers/transformers-env.ts';
import type { ChatMessage } from '../../model/provider.ts';
import { ModelLoadError } from '../../model/model-load-error.ts';
import { DEFAULT_MODEL_HUB, hubHost } from '../../model/model-hub.ts';
import { generationDtypeFor, type GenerationDevice, type GenerationDtype } from './models.ts';

export { ModelLoadError };

/** Where the model's files come from (transformers-env.ts), its dtype and its device. */
export interface GenerationSource extends TransformersSource {
  /** Default: the model list's (models.ts). */
  dtype?: GenerationDtype;
  device?: GenerationDevice;
}

/** Model download / load progress as plain data (it crosses the worker boundary), as for every model. */
export type GenerationLoadProgress = ModelProgress;

export interface LoadedGenerator {
  model: string;
  device: GenerationDevice;
  tokenizer: PreTrainedTokenizer;
  lm: PreTrainedModel;
  /** Token ids that end a reply (the generation config's eos ids). */
  eos: number[];
  dispose(): Promise<void>;
}

const asIds = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : typeof v === 'number' || typeof v === 'bigint' ? [Number(v)] : []).filter((x) => Number.isInteger(x));

/** Where a model was looked for, in words, for a load error: the folder, and the hub by its host. */
function lookedIn(source: GenerationSource): string {
  const local = source.localModelPath ? `${source.localModelPath.replace(/[\\/]+$/, '')}/${source.model}` : null;
  const hub = source.allowRemoteModels ? `the model hub at ${hubHost(source.remoteHost ?? DEFAULT_MODEL_HUB)}` : null;
  return [local, hub].filter(Boolean).join(' or ') + (source.allowRemoteModels ? '' : ' (remote models are not allowed)');
}

export async function loadGenerator(source: GenerationSource, onProgress?: (p: GenerationLoadProgress) => void): Promise<LoadedGenerator> {
  try {
    return await load(source, onProgress);
  } catch (e) {
    if (e instanceof ModelLoadError) throw e;
    const why = errorMessage(e);
    // The library reads tokenizer_config.json first; a model that is not there fails on its fields.
    const missing = /reading 'tokenizer_class'|could not locate|not found|404/i.test(why);
    // The Hugging Face hub answers 401 for a repository that does not exist, as for a gated one.
    const refused = /Unauthorized access|\b401\b/i.test(why);
    // Missing files mean the id is not there (a typo, or a model without an ONNX export): said so, naming the id.
    if (missing || refused) {
      throw new ModelLoadError(
        `could not load "${source.model}": no model "${source.model}" with ONNX files (tokenizer_config.json, config.json, onnx/*.onnx) was found at ${lookedIn(source)}${refused ? ' (the hub refused access: the id is unknown, or the model is private or gated)' : ''}; check the model id, or choose a model with ONNX weights`,
      );
    }
    throw new ModelLoadError(`could not load "${source.model}" from ${lookedIn(source)}: ${why}`);
  }
}

async function load(source: GenerationSource, onProgress?: (p: GenerationLoadProgress) => void): Promise<LoadedGenerator> {
  applyEnv(source);
  const options = loadOptions(source.dtype ?? generationDtypeFor(source.model), source.device, onProgress);
  // The tokenizer has no dtype or device: it reports its files' progress only.
  const tokenizer = await AutoTokenizer.from_pretrained(source.model, { progress_callback: options.progress_callback });
  const lm = await AutoModelForCausalLM.from_pretrained(source.model, options);
  if (!tokenizer.chat_template) {
    await lm.dispose();
    throw new ModelLoadError(`"${source.model}" has no chat template in its tokenizer_config.json, so it is not an instruct (chat) model`);
  }
  const config = lm.generation_config as { eos_token_id?: unknown } | undefined;
  const eos = [...new Set([...asIds(config?.eos_token_id), ...asIds((lm.config as { eos_token_id?: unknown }).eos_token_id), ...asIds(tokenizer.eos_token_id)])];
  if (eos.length === 0) {
    await lm.dispose();
    throw new ModelLoadError(`"${source.model}" names no end-of-sequence token, so its replies would never end`);
  }
  return {
    model: source.model,
    // Without a device the library picks its default: onnxruntime-node's CPU in Node, WASM in a browser.
    device: source.device ?? (typeof process !== 'undefined' && process.versions?.node ? 'cpu' : 'wasm'),
    tokenizer,
    lm,
    eos,
    dispose: async () => {
      await lm.dispose();
    },
  };
}

export interface GenerateRequest {
  messages: ChatMessage[];
  /** Replies wanted: rows of one batch. */
  n: number;
  /** 0: greedy decoding (every row the same). */
  temperature: number;
  topP?: number;
  maxTokens: number;
  /** Seeds this request's generator: the same request with the same seed draws the same replies. */
  seed?: number;
}

export interface GeneratedReply {
  text: string;
  /** 'stop': the model ended the reply; 'length': it reached maxTokens. */
  finishReason: 'stop' | 'length';
  tokens: number;
}

export interface GenerateResult {
  replies: GeneratedReply[];
  /** Prompt tokens (once, as an API with n counts them). */
  inputTokens: number;
  /** Tokens generated over every reply, up to and including each one's end token. */
  outputTokens: number;
  ms: number;
}

/** A uniform draw in [0, 1). */
export type Uniform = () => number;

/**
 * Draws each row's next token from softmax(logits / temperature) restricted to the nucleus of
 * mass top_p, and leaves it the only finite logit, so greedy decoding takes it.
 */
export class SamplingProcessor extends LogitsProcessor {
  constructor(private readonly temperature: number, private readonly topP: number, private readonly uniform: Uniform) {
    super();
  }
  override _call(inputIds: bigint[][], logits: Tensor): Tensor {
    for (let row = 0; row < inputIds.length; row++) {
      const data = (logits as unknown as Tensor[])[row].data as Float32Array;
      const token = drawToken(data, this.temperature, this.topP, this.uniform);
      data.fill(-Infinity);
      data[token] = 0;
    }
    return logits;
  }
}

/** One token drawn from softmax(logits / temperature) within the nucleus of mass `topP` (logits are scaled in place). */
export function drawToken(logits: Float32Array, temperature: number, topP: number, uniform: Uniform): number {
  if (temperature !== 1) for (let i = 0; i < logits.length; i++) logits[i] /= temperature;
  nucleus(logits, topP);
  let max = -Infinity;
  for (const x of logits) if (x > max) max = x;
  let sum = 0;
  for (const x of logits) sum += Math.exp(x - max);
  let u = uniform() * sum;
  let last = -1;
  for (let i = 0; i < logits.length; i++) {
    const w = Math.exp(logits[i] - max);
    if (w === 0) continue;
    last = i;
    u -= w;
    if (u < 0) return i;
  }
  // Rounding left a sliver at the top: the last possible token takes it.
  return last;
}

/**
 * Below the favourite's logit by more than this, a token's share is under e^-30 of it: even a
 * 150,000-token vocabulary of such tokens holds under 2e-8 of the mass, so they are left out of
 * the nucleus without sorting them (a sort of the whole vocabulary per row and token is slow).
 */
const NUCLEUS_MARGIN = 30;

/** Sets to -Infinity, in place, every logit outside the nucleus of mass `topP`. */
export function nucleus(logits: Float32Array, topP: number): void {
  if (!(topP < 1)) return;
  let max = -Infinity;
  for (const x of logits) if (x > max) max = x;
  const candidates: number[] = [];
  for (let i = 0; i < logits.length; i++) if (logits[i] > max - NUCLEUS_MARGIN) candidates.push(i);
  candidates.sort((a, b) => logits[b] - logits[a]);
  let sum = 0;
  for (const i of candidates) sum += Math.exp(logits[i] - max);
  // Tokens are kept while the mass before them is below top_p: the one that crosses it stays.
  const keep = new Set<number>();
  let kept = 0;
  for (let k = 0; k < candidates.length && (kept < topP || keep.size === 0); k++) {
    keep.add(candidates[k]);
    kept += Math.exp(logits[candidates[k]] - max) / sum;
  }
  for (let i = 0; i < logits.length; i++) if (!keep.has(i)) logits[i] = -Infinity;
}

/** Holds every row whose reply has ended at its end token (see the file comment). */
export class FinishedRowsProcessor extends LogitsProcessor {
  constructor(private readonly promptLength: number, private readonly eos: number[]) {
    super();
  }
  override _call(inputIds: bigint[][], logits: Tensor): Tensor {
    for (let row = 0; row < inputIds.length; row++) {
      const ids = inputIds[row];
      let ended = false;
      for (let t = this.promptLength; t < ids.length && !ended; t++) ended = this.eos.includes(Number(ids[t]));
      if (!ended) continue;
      const data = (logits as unknown as Tensor[])[row].data as Float32Array;
      data.fill(-Infinity);
      data[this.eos[0]] = 0;
    }
    return logits;
  }
}

/** The chat template applied to the messages, ending where the assistant's reply begins. */
export function chatPrompt(g: Pick<LoadedGenerator, 'tokenizer'>, messages: ChatMessage[]): string {
  return g.tokenizer.apply_chat_template(messages, { tokenize: false, add_generation_prompt: true }) as string;
}

function abortError(): Error {
  return new DOMException('generation was cancelled', 'AbortError');
}

export async function generateReplies(g: LoadedGenerator, request: GenerateRequest, options: { signal?: AbortSignal; now?: () => number } = {}): Promise<GenerateResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  if (options.signal?.aborted) throw abortError();
  if (!Number.isInteger(request.n) || request.n < 1) throw new Error(`replies per request must be a whole number ≥ 1 (got ${request.n})`);
  if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) throw new Error(`max tokens must be a whole number ≥ 1 (got ${request.maxTokens})`);
  const prompt = chatPrompt(g, request.messages);
  // The template already holds any special tokens the model wants.
  const one = g.tokenizer(prompt, { add_special_tokens: false });
  const promptIds = (one.input_ids as Tensor).tolist()[0] as bigint[];
  const promptLength = promptIds.length;
  const batch = g.tokenizer(Array.from({ length: request.n }, () => prompt), { add_special_tokens: false, padding: true });
  const sample = request.temperature > 0;
  const stop = new InterruptableStoppingCriteria();
  const onAbort = () => stop.interrupt();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Without a seed the generator seeds itself from the platform's entropy.
  const rng = new random.Random(request.seed);
  const uniform = () => rng.random();
  let sequences: Tensor;
  try {
    sequences = (await g.lm.generate({
      ...batch,
      max_new_tokens: request.maxTokens,
      // Greedy in the library's eyes: the draw is ours (SamplingProcessor), after the finished rows are held.
      do_sample: false,
      // A model's generation_config.json may ask for a repetition penalty (Qwen2.5: 1.1); the run's
      // temperature and top_p are the whole sampling rule, as with the APIs, so it is turned off.
      repetition_penalty: 1,
      no_repeat_ngram_size: 0,
      logits_processor: [new FinishedRowsProcessor(promptLength, g.eos), ...(sample ? [new SamplingProcessor(request.temperature, request.topP ?? 1, uniform)] : [])],
      stopping_criteria: [stop],
    } as unknown as Parameters<PreTrainedModel['generate']>[0])) as Tensor;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (options.signal?.aborted) throw abortError();
  const rows = sequences.tolist() as bigint[][];
  let outputTokens = 0;
  const replies = rows.map((ids): GeneratedReply => {
    const generated = ids.slice(promptLength).map(Number);
    const end = generated.findIndex((id) => g.eos.includes(id));
    const kept = end >= 0 ? generated.slice(0, end) : generated;
    const tokens = end >= 0 ? end + 1 : generated.length;
    outputTokens += tokens;
    return { text: g.tokenizer.decode(kept, { skip_special_tokens: true }), finishReason: end >= 0 ? 'stop' : 'length', tokens };
  });
  return { replies, inputTokens: promptLength, outputTokens, ms: now() - started };
}

/**
 * The next-token probabilities after a prompt (one forward pass, no sampling): what the WebGPU
 * check compares with WASM.
 */
export async function nextTokenProbabilities(g: LoadedGenerator, messages: ChatMessage[]): Promise<Float32Array> {
  const inputs = g.tokenizer(chatPrompt(g, messages), { add_special_tokens: false });
  const out = (await g.lm(inputs)) as { logits: Tensor };
  const [, seq, vocab] = out.logits.dims;
  const data = out.logits.data as Float32Array;
  const last = data.slice((seq - 1) * vocab, seq * vocab);
  let max = -Infinity;
  for (const x of last) if (x > max) max = x;
  let sum = 0;
  for (let i = 0; i < last.length; i++) sum += last[i] = Math.exp(last[i] - max);
  for (let i = 0; i < last.length; i++) last[i] /= sum;
  return last;
}

/** Prompts whose next-token distributions must agree between backends (questions of several kinds). */
export const PROBE_MESSAGES: ChatMessage[][] = [
  [{ role: 'user', content: 'Which city is the capital of Australia? Answer in one word.' }],
  [{ role: 'user', content: 'How many sides does a hexagon have?' }],
];

/**
 * Whether a candidate backend's next-token distributions agree with the trusted one's: the same
 * most likely token, and a total variation distance below `maxDistance`, on every probe.
 */
export function distributionsAgree(reference: Float32Array[], candidate: Float32Array[], maxDistance = 0.1): { agree: boolean; worst: number } {
  let worst = reference.length === candidate.length && reference.length > 0 ? 0 : 1;
  for (let p = 0; p < Math.min(reference.length, candidate.length); p++) {
    const a = reference[p];
    const b = candidate[p];
    if (a.length !== b.length) {
      worst = 1;
      continue;
    }
    let tv = 0;
    let argA = 0;
    let argB = 0;
    for (let i = 0; i < a.length; i++) {
      tv += Math.abs(a[i] - b[i]) / 2;
      if (a[i] > a[argA]) argA = i;
      if (b[i] > b[argB]) argB = i;
    }
    worst = Math.max(worst, argA === argB ? tv : 1);
  }
  return { agree: worst < maxDistance, worst };
}
