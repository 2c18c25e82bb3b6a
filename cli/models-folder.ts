/**
 * The repository's own models folder (public/models: the tiny embedder, NLI and language models
 * the app ships), the default --model-dir of every command that loads an in-page model. Found by
 * walking up from this module, because it runs from two places: cli/ under tsx, and the launcher's
 * bundle in node_modules/.cache/semece-cli/… (cli/launcher.mjs); a path fixed relative to either
 * would miss in the other, and one relative to the working directory misses outside the repository.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

function findModelsFolder(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'public', 'models');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return path.resolve('public/models');
  }
}

export const REPOSITORY_MODELS = findModelsFolder(import.meta.dirname);

/** --model-dir as given (relative to the working directory), or the repository's folder; with a trailing separator, as Transformers.js wants. */
export function modelsFolder(given: string | undefined): string {
  return path.resolve(given ?? REPOSITORY_MODELS) + path.sep;
}
