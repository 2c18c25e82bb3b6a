/**
 * NLI decisions from Transformers.js, shared by the browser's NLI worker and by Node (CLI, tests,
 * benchmarks). The model is loaded through the 'text-classification' pipeline (the library's own
 * loading of config.json, tokenizer.json and onnx/model*.onnx), but pairs are run through the
 * pipeline's tokenizer and model directly: the pipeline's call tokenizes single texts only, while
 * an NLI model must read premise and hypothesis as one pair ([CLS] premise [SEP] hypothesis [SEP]
 * with their token types), which the tokenizer does given `text_pair`, as the library's
 * zero-shot pipeline does. The top class is the arg-max of the logits (the reference
 * implementation's arg-max of the softmax), read through the model's id2label by name.
 */
import { pipeline, type TextClassificationPipeline } from '@huggingface/transformers';
import { ENTAILMENT_LABEL, type NliLabel } from '../model/entailment-cache';
import type { EntailmentDecider, NliPair, NliScore } from './entailment';
import type { EmbeddingDevice, EmbeddingDtype } from './embedding-models';
import type { ModelProgress } from '../model/progress';
import { applyEnv, loadOptions, type TransformersSource } from '../transformers/transformers-env';
import { lazyIdentifiedModel } from '../transformers/model-identity';

export { DEFAULT_NLI_MODEL, TINY_NLI_MODEL } from './nli-models';

export type NliModelSource = TransformersSource & { dtype?: EmbeddingDtype; device?: EmbeddingDevice };

/** What the clusterer needs of a loaded classifier: its tokenizer and model (the pipeline has both). */
export type PairClassifier = Pick<TextClassificationPipeline, 'tokenizer' | 'model' | 'dispose'>;

export async function loadPairClassifier(source: NliModelSource, onProgress?: (p: ModelProgress) => void): Promise<PairClassifier> {
  applyEnv(source);
  const classifier = await pipeline('text-classification', source.model, loadOptions(source.dtype ?? 'q8', source.device, onProgress));
  // Fail at load, not at the first pair, when the model is no NLI model.
  nliLabelsOf(source.model, classifier.model.config);
  return classifier;
}

/**
 * Each class index's NLI label, read from config.json's id2label by name, in any case
 * (ENTAILMENT or entailment): MNLI models order their classes differently. A label that is
 * neither entailment nor contradiction (neutral, not_entailment) reads as neutral, which the
 * clusterer treats as "does not entail". A model with no entailment label is refused.
 */
export function nliLabelsOf(model: string, config: unknown): NliLabel[] {
  const id2label = (config as { id2label?: Record<string, string> } | undefined)?.id2label;
  const names = id2label ? Object.entries(id2label).sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => String(v)) : [];
  const labels = names.map((n): NliLabel => {
    const lower = n.trim().toLowerCase();
    return lower === ENTAILMENT_LABEL ? ENTAILMENT_LABEL : lower === 'contradiction' ? 'contradiction' : 'neutral';
  });
  if (!labels.includes(ENTAILMENT_LABEL)) {
    throw new Error(`"${model}" is not an NLI model: its config.json labels (${names.length ? names.join(', ') : 'none'}) name no '${ENTAILMENT_LABEL}' class`);
  }
  return labels;
}

/** Raw logits per pair (own arrays), in order, `batchSize` pairs per model call. */
export async function pairLogits(classifier: PairClassifier, pairs: NliPair[], batchSize = 16): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let start = 0; start < pairs.length; start += batchSize) {
    const batch = pairs.slice(start, start + batchSize);
    const inputs = classifier.tokenizer(
      batch.map((p) => p.premise),
      { text_pair: batch.map((p) => p.hypothesis), padding: true, truncation: true },
    );
    const { logits } = (await classifier.model(inputs)) as { logits: { data: ArrayLike<number>; dims: number[] } };
    const width = logits.dims[logits.dims.length - 1];
    const data = Float32Array.from(logits.data);
    for (let i = 0; i < batch.length; i++) out.push(data.slice(i * width, (i + 1) * width));
  }
  return out;
}

/** The arg-max class of each logits row (the first on ties, as torch.argmax). */
export function topClass(logits: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < logits.length; i++) if (logits[i] > logits[best]) best = i;
  return best;
}

export async function classifyPairs(classifier: PairClassifier, model: string, pairs: NliPair[], batchSize = 16): Promise<NliLabel[]> {
  const labels = nliLabelsOf(model, classifier.model.config);
  const rows = await pairLogits(classifier, pairs, batchSize);
  return rows.map((row) => {
    const label = labels[topClass(row)];
    if (label === undefined) throw new Error(`"${model}" returned ${row.length} logits, but its config.json names ${labels.length} labels`);
    return label;
  });
}

/**
 * Each pair's top label and its probability of entailment (the softmax of the logits at the
 * entailment class, as Lin, Trivedi & Sun 2023 read an NLI model): one model pass gives both, so
 * the label is the one classifyPairs gives.
 */
export async function scorePairs(classifier: PairClassifier, model: string, pairs: NliPair[], batchSize = 16): Promise<NliScore[]> {
  const labels = nliLabelsOf(model, classifier.model.config);
  const at = labels.indexOf(ENTAILMENT_LABEL);
  const rows = await pairLogits(classifier, pairs, batchSize);
  return rows.map((row) => {
    const label = labels[topClass(row)];
    if (label === undefined || row.length !== labels.length) throw new Error(`"${model}" returned ${row.length} logits, but its config.json names ${labels.length} labels`);
    return { label, entailment: softmax(row)[at] };
  });
}

/**
 * An EntailmentDecider over Transformers.js: the classifier is created once, on first use
 * (`lazily`: concurrent first calls share one load; a failed load is forgotten so a later call can try again).
 */
export function createTransformersDecider(source: NliModelSource, onProgress?: (p: ModelProgress) => void): EntailmentDecider & { ready(): Promise<PairClassifier> } {
  const { ready, identity } = lazyIdentifiedModel(source, () => loadPairClassifier(source, onProgress));
  return {
    model: source.model,
    ready,
    identity,
    async decide(pairs, signal) {
      const classifier = await ready();
      if (signal?.aborted) throw new DOMException('entailment was cancelled', 'AbortError');
      return classifyPairs(classifier, source.model, pairs);
    },
    async score(pairs, signal) {
      const classifier = await ready();
      if (signal?.aborted) throw new DOMException('entailment was cancelled', 'AbortError');
      return scorePairs(classifier, source.model, pairs);
    },
  };
}

/**
 * Whether decisions from a trusted backend (WASM) and a candidate (WebGPU) agree on the probe
 * pairs: the same top class for every pair, and softmax probabilities within `tolerance`.
 */
export function decisionsAgree(reference: Float32Array[], candidate: Float32Array[], tolerance = 0.02): { agree: boolean; worst: number } {
  if (reference.length === 0 || reference.length !== candidate.length) return { agree: false, worst: Infinity };
  let worst = 0;
  let sameTop = true;
  for (let i = 0; i < reference.length; i++) {
    const a = softmax(reference[i]);
    const b = softmax(candidate[i]);
    if (a.length !== b.length) return { agree: false, worst: Infinity };
    if (topClass(reference[i]) !== topClass(candidate[i])) sameTop = false;
    for (let k = 0; k < a.length; k++) {
      const d = Math.abs(a[k] - b[k]);
      if (!(d <= worst)) worst = Number.isNaN(d) ? Infinity : Math.max(worst, d);
    }
  }
  return { agree: sameTop && worst <= tolerance, worst };
}

function softmax(row: ArrayLike<number>): number[] {
  const max = Math.max(...Array.from(row));
  const exps = Array.from(row, (x) => Math.exp(x - max));
  const sum = exps.reduce((s, x) => s + x, 0);
  return exps.map((x) => x / sum);
}

/** Pairs of different kinds (equivalent, adding, contradicting), enough to expose a backend that computes something else. */
export const PROBE_PAIRS: readonly NliPair[] = [
  { premise: 'What is the capital of France? Paris', hypothesis: 'What is the capital of France? Paris, France' },
  { premise: 'What is the capital of France? Paris', hypothesis: 'What is the capital of France? Lyon' },
  { premise: 'The weather is good', hypothesis: 'The weather is good and I like you' },
  { premise: 'The weather is good and I like you', hypothesis: 'The weather is good' },
  { premise: 'How many legs does a spider have? Eight', hypothesis: 'How many legs does a spider have? 8' },
];
