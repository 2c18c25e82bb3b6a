/**
 * `npm start`: builds the app, then serves that build (Vite's preview server, static files only)
 * at http://127.0.0.1:5173/. Not Vite's dev server: its first-use dependency optimisation
 * reloads the page mid-task (a chosen CSV vanished, a just-started run was left interrupted).
 * `npm run dev` keeps the dev server for working on the code.
 *
 * SEMECE_PORT and SEMECE_OUT_DIR exist for the test that runs this command
 * (tests/unit/scripts/start.test.ts): another port (0 = any free one) and another folder, so it
 * runs beside an app already served on 5173 and beside the browser tests' build.
 */
import { pathToFileURL } from 'node:url';
import { build, preview, type PreviewServer } from 'vite';

/** The port the README's start command promises. */
export const START_PORT = 5173;

export async function startApp(options: { port?: number; outDir?: string } = {}): Promise<PreviewServer> {
  const folder = options.outDir ? { build: { outDir: options.outDir, emptyOutDir: true } } : {};
  await build({ ...folder, logLevel: 'warn' });
  // strictPort: the README promises this address; a busy port is an error that says so, not another address.
  return preview({ ...folder, preview: { host: '127.0.0.1', port: options.port ?? START_PORT, strictPort: true, open: false } });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = process.env.SEMECE_PORT ? Number(process.env.SEMECE_PORT) : START_PORT;
  const server = await startApp({ port, outDir: process.env.SEMECE_OUT_DIR || undefined });
  server.printUrls();
}
