import path from 'node:path';

/** The folder the browser tests build the app into and serve: dist/, or SEMECE_OUT_DIR (global-setup.ts). */
export function builtAppDir(): string {
  return path.resolve(process.env.SEMECE_OUT_DIR ?? 'dist');
}
