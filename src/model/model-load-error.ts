/**
 * The in-browser model could not be loaded. Apart from generate.ts so that the generation
 * client (in the run worker) can throw it without importing Transformers.js; the provider reads
 * it by its name (provider.ts).
 */

/** The model could not be loaded (missing files, no chat template …): every request would fail the same way. */
export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
}

/**
 * The model's files had to come from the hub, and the hub cannot be reached at all (no network,
 * a refused connection, a name that does not resolve): its own kind, said once
 * (model/model-hub.ts words it), since every later question would fail the same way.
 */
export class HubUnreachableError extends Error {
  override name = 'HubUnreachableError';
}

/** Whether `e` is one (by its name, which survives a worker boundary where the class does not). */
export function isHubUnreachable(e: unknown): boolean {
  return (e as { name?: string } | null)?.name === 'HubUnreachableError';
}
