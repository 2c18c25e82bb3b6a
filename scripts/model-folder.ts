/**
 * Where a tiny-model script writes, and how: public/models/<folder>/ unless the environment
 * variable names another folder (the unit tests that compare a script's output with the
 * committed files write to a temporary one), with its onnx/ subfolder made first.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function modelFolder(folder: string, envVar: string): string {
  return path.resolve(process.env[envVar] ?? path.join(import.meta.dirname, '../public/models', folder));
}

/** Writes each file (a path relative to `out`, 'onnx/…' for the weights). */
export function writeModelFiles(out: string, files: Record<string, string | Uint8Array>): void {
  mkdirSync(path.join(out, 'onnx'), { recursive: true });
  for (const [file, data] of Object.entries(files)) writeFileSync(path.join(out, file), data);
}

/** A config file as the scripts write them: two-space indents, a final newline. */
export const prettyJson = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
/** tokenizer.json: one line (it holds the whole vocabulary), a final newline. */
export const compactJson = (value: unknown): string => `${JSON.stringify(value)}\n`;
