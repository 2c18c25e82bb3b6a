/**
 * The NLI model's module worker: Transformers.js text-pair classification off the main thread,
 * for the entailment clusterer. Built like the embedding worker, on model-worker.ts: the
 * classifier is created once, lazily (a cached promise per configuration); load progress is
 * forwarded through a callback; expected failures come back as values ({ok: false, error}), over
 * the one worker protocol.
 *
 * Backends: WASM always works. When `navigator.gpu` exists, WebGPU is tried too, and trusted only
 * if its decisions on a few probe pairs agree with the WASM ones (same top class, probabilities
 * within 0.02); otherwise WASM is used and the reason is reported.
 */
import type { EmbeddingDtype } from '../clustering/embedding-models';
import type { ModelProgress } from '../model/progress';
import type { NliPair, NliScore } from '../clustering/entailment';
import { classifyPairs, scorePairs, decisionsAgree, loadPairClassifier, pairLogits, PROBE_PAIRS, type NliModelSource, type PairClassifier } from '../clustering/text-pair-classification';
import { NLI_FAILED_KIND, type NliLabel } from '../model/entailment-cache';
import type { Result } from '../model/rows';
import { modelIdentity } from '../transformers/model-identity';
import { WEBGPU_CHECK_DECISIONS } from './model-load';
import { chooseBackend, createModelHost, type ModelBackendInfo, type ModelWorkerConfig } from './model-worker';
import { errorMessage } from '../model/app-error';
import { exposeApi } from './worker-connection';
import { workerModelSource } from './worker-model-source';

export type NliWorkerConfig = ModelWorkerConfig<EmbeddingDtype>;
export type NliBackendInfo = ModelBackendInfo;

async function load(config: NliWorkerConfig, onProgress?: (p: ModelProgress) => void) {
  const source: NliModelSource = { ...workerModelSource(config), dtype: config.dtype ?? 'q8' };
  const loaded = await chooseBackend<PairClassifier, Float32Array[]>(
    {
      model: config.model,
      webgpu: config.webgpu,
      load: (device, progress) => loadPairClassifier({ ...source, device }, progress),
      probe: (classifier) => pairLogits(classifier, [...PROBE_PAIRS]),
      agree: (reference, candidate) => decisionsAgree(reference, candidate),
      dispose: (classifier) => classifier.dispose(),
      turnedOffFor: 'the NLI model',
      disagreement: (worst) => `WebGPU decisions disagree with WASM (largest probability difference ${worst.toFixed(4)})`,
      checkStatus: WEBGPU_CHECK_DECISIONS,
    },
    onProgress,
  );
  // Cached decisions are keyed by it: another model under the same id must not reuse them.
  return { ...loaded, info: { ...loaded.info, identity: await modelIdentity(source, source.dtype!) } };
}

const host = createModelHost(load, (config, message) => ({ kind: 'nli-model', message: `could not load NLI model "${config.model}": ${message}`, where: 'NLI worker' }));

const api = {
  /** Loads (once) and reports the backend chosen. */
  init: (config: NliWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Result<NliBackendInfo>> => host.init(config, onProgress),

  /** The top label of each pair, in order. */
  async decide(pairs: NliPair[]): Promise<Result<NliLabel[]>> {
    const use = host.use();
    if (!use) return { ok: false, error: { kind: 'nli-model', message: 'decide called before init', where: 'NLI worker' } };
    try {
      return { ok: true, value: await classifyPairs((await use.loaded).instance, use.config.model, pairs) };
    } catch (err) {
      return { ok: false, error: { kind: NLI_FAILED_KIND, message: `entailment failed: ${errorMessage(err)}`, where: 'NLI worker' } };
    }
  },

  /** The top label and the entailment probability of each pair, in order (the entailment similarity). */
  async score(pairs: NliPair[]): Promise<Result<NliScore[]>> {
    const use = host.use();
    if (!use) return { ok: false, error: { kind: 'nli-model', message: 'score called before init', where: 'NLI worker' } };
    try {
      return { ok: true, value: await scorePairs((await use.loaded).instance, use.config.model, pairs) };
    } catch (err) {
      return { ok: false, error: { kind: NLI_FAILED_KIND, message: `entailment failed: ${errorMessage(err)}`, where: 'NLI worker' } };
    }
  },
};

export type NliWorkerApi = typeof api;

exposeApi(api);
