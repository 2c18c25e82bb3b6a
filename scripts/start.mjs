#!/usr/bin/env node
/**
 * `npm start`: builds the app, then serves that build (Vite's preview server, static files only)
 * at http://127.0.0.1:5173/. Not Vite's dev server: its first-use dependency optimisation
 * reloads the page mid-task (a chosen CSV vanished, a just-started run was left interrupted).
 * `npm run dev` keeps the dev server for working on the code.
 *
 * SEMECE_PORT and SEMECE_OUT_DIR exist for the test that runs this command
 * (tests/unit/start-script.test.ts): another port (0 = any free one) and another folder, so it
 * runs beside an app already served on 5173 and beside the browser tests' build.
 */
import { build, preview } from 'vite';

const port = process.env.SEMECE_PORT ? Number(process.env.SEMECE_PORT) : 5173;
const outDir = process.env.SEMECE_OUT_DIR;
const folder = outDir ? { build: { outDir, emptyOutDir: true } } : {};

await build({ ...folder, logLevel: 'warn' });
// strictPort: the README promises this address; a busy port is an error that says so, not another address.
const server = await preview({ ...folder, preview: { host: '127.0.0.1', port, strictPort: true, open: false } });
server.printUrls();
