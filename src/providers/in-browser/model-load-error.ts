/**
 * The in-browser model could not be loaded. Apart from generate.ts so that the generation
 * client (in the run worker) can throw it without importing Transformers.js; the provider reads
 * it by its name (provider.ts).
 */

/** The model could not be loaded (missing files, no chat template …): every request would fail the same way. */
export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
}
