/**
 * Where a model worker's model comes from: the client's settings, and ONNX Runtime's WASM binary
 * from the app's own files (emitted into the build by Vite and served by the app itself; the
 * bundled runtime would otherwise be pointed at a CDN by Transformers.js). Worker code only: it
 * resolves against the worker's own location.
 */
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type { TransformersSource } from '../transformers/transformers-env';
import type { ModelWorkerConfig } from './model-worker';

export function workerModelSource(config: ModelWorkerConfig): TransformersSource {
  return {
    model: config.model,
    allowRemoteModels: config.allowRemoteModels ?? false,
    localModelPath: config.localModelPath,
    ...(config.remoteHost ? { remoteHost: config.remoteHost } : {}),
    wasmPaths: { wasm: new URL(ortWasmUrl, self.location.href).href },
  };
}
