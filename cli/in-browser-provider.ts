/**
 * `semece sample --provider in-browser`: the page's in-browser model, run in this process with
 * Transformers.js on onnxruntime-node, through the same provider and generation modules as the
 * page's generation worker (src/providers/in-browser/). Shipped models are read from the
 * repository's public/models; a hub model is fetched only with --allow-remote-models.
 */
import { modelsFolder } from './models-folder.ts';
import type { ProviderConfig, SamplingProvider } from '../src/model/provider.ts';
import { createInBrowserProvider } from '../src/providers/in-browser/in-browser-provider.ts';
import { createLocalGenerator } from '../src/providers/in-browser/local-generator.ts';
import { IN_BROWSER_PRESET, OFFERED_GENERATION_MODELS, SHIPPED_GENERATION_MODELS, isShippedGenerationModel } from '../src/providers/in-browser/models.ts';


export const IN_BROWSER_HELP = `--provider ${IN_BROWSER_PRESET} (no key, no server): the model runs in this process (Transformers.js, onnxruntime-node),
  the same code as the page's "In this browser (no key)" provider; one request at a time, a question's
  samples generated together as one batch (up to 16 rows). --model is one of
    shipped with the repository (no download): ${SHIPPED_GENERATION_MODELS.join(', ')} (a lookup table for tests, not a language model)
${OFFERED_GENERATION_MODELS.filter((m) => m.approxMb > 0).map((m) => `    ${m.id} (${m.dtype}, about ${m.approxMb} MB, needs --allow-remote-models)`).join('\n')}
    or any hub id with ONNX weights and a chat template
  --model-dir DIR        where shipped models are (default: the repository's public/models)
  --allow-remote-models  fetch a model not in --model-dir from the Hugging Face hub (kept in Transformers.js's cache)
  --sampling-seed S      seed the sampler, so the same command draws the same replies`;

export interface LocalModelOptions {
  modelDir?: string;
  allowRemote: boolean;
  seed?: number;
}

export function inBrowserSamplingProvider(config: ProviderConfig, options: LocalModelOptions, log: (line: string) => void): { provider: SamplingProvider; dispose(): Promise<void> } {
  const shipped = isShippedGenerationModel(config.model);
  const generator = createLocalGenerator(
    {
      model: config.model,
      localModelPath: modelsFolder(options.modelDir),
      // A shipped model is never fetched, whatever the flag says.
      allowRemoteModels: !shipped && options.allowRemote,
    },
    (p) => {
      if (p.status === 'done' && p.file) log(`model file ${p.file} loaded`);
    },
    { seed: options.seed },
  );
  return { provider: createInBrowserProvider(config, generator), dispose: () => generator.dispose() };
}
