/**
 * Node's reader of model files, for a loaded model's identity (src/transformers/model-identity.ts):
 * the app code runs in browsers too and imports no Node built-in, so every Node entry point that
 * loads an in-page model hands this in as its source's `readFile`.
 */
import { readFile } from 'node:fs/promises';

/** A file's bytes; undefined when it is not there (the identity then looks elsewhere). */
export async function readModelFile(file: string): Promise<Uint8Array | undefined> {
  return readFile(file).then((b) => new Uint8Array(b), () => undefined);
}
