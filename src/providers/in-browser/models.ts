/**
 * The in-browser provider's names and model list, kept apart from the Transformers.js import so
 * the page can name a model without loading the library (only the generation worker, and Node,
 * load it).
 */

/** The provider id, in the wizard, in run specs and reports, and in `semece sample --provider`. */
export const IN_BROWSER_PRESET = 'in-browser';

/** The causal model the repository makes itself (scripts/make-tiny-causal-model.ts), served from /models/; a test model (model/test-models.ts). */
import { TINY_CAUSAL_MODEL } from '../../model/test-models';
export { TINY_CAUSAL_MODEL };

export type GenerationDtype = 'q4' | 'q4f16' | 'q8' | 'fp16' | 'fp32';
export type GenerationDevice = 'wasm' | 'webgpu' | 'cpu';

export interface OfferedGenerationModel {
  id: string;
  label: string;
  /**
   * The weights loaded, on WebGPU and WASM alike, so one download serves both and the WebGPU
   * check compares like with like. q4 (4-bit MatMulNBits weights) runs on both backends.
   */
  dtype: GenerationDtype;
  /** Approximate download in MB of onnx/model_<dtype>.onnx, from the hub's file listings; 0: shipped with the app. */
  approxMb: number;
}

/** The models the wizard offers by name (any hub id with ONNX weights can still be typed). */
export const OFFERED_GENERATION_MODELS: readonly OfferedGenerationModel[] = [
  { id: 'HuggingFaceTB/SmolLM2-135M-Instruct', label: 'SmolLM2 135M Instruct — smallest, fastest, often wrong', dtype: 'q4', approxMb: 200 },
  { id: 'HuggingFaceTB/SmolLM2-360M-Instruct', label: 'SmolLM2 360M Instruct', dtype: 'q4', approxMb: 417 },
  { id: 'onnx-community/Qwen2.5-0.5B-Instruct', label: 'Qwen2.5 0.5B Instruct', dtype: 'q4', approxMb: 786 },
  { id: 'onnx-community/Llama-3.2-1B-Instruct', label: 'Llama 3.2 1B Instruct', dtype: 'q4', approxMb: 1660 },
  { id: 'HuggingFaceTB/SmolLM2-1.7B-Instruct', label: 'SmolLM2 1.7B Instruct', dtype: 'q4', approxMb: 1470 },
  { id: 'onnx-community/Qwen2.5-1.5B-Instruct', label: 'Qwen2.5 1.5B Instruct — largest, slowest', dtype: 'q4', approxMb: 1790 },
  { id: TINY_CAUSAL_MODEL, label: 'tiny-causal-lm — shipped with the app, for tests: a lookup table, not a language model', dtype: 'q8', approxMb: 0 },
];

export const SHIPPED_GENERATION_MODELS: readonly string[] = [TINY_CAUSAL_MODEL];

export function isShippedGenerationModel(model: string): boolean {
  return SHIPPED_GENERATION_MODELS.includes(model.trim());
}

/** The dtype a model is loaded with: the list's, or q4 for any other hub id (the onnx-community exports all have it). */
export function generationDtypeFor(model: string): GenerationDtype {
  return OFFERED_GENERATION_MODELS.find((m) => m.id === model.trim())?.dtype ?? 'q4';
}

/** The approximate download in MB: 0 when shipped, null when the list does not know the model. */
export function approxGenerationDownloadMb(model: string): number | null {
  if (isShippedGenerationModel(model)) return 0;
  return OFFERED_GENERATION_MODELS.find((m) => m.id === model.trim())?.approxMb ?? null;
}

/**
 * Replies generated together in one batch (one request): a question's n samples share one
 * prompt, so they are n rows of one batch. Larger batches hold more memory at once.
 */
export const MAX_REPLIES_PER_CALL = 16;
