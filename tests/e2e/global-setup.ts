import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
  }
}

let server: PreviewServer | undefined;

/** Builds the app once and serves `dist/` on loopback for every browser test. */
export async function setup(project: TestProject) {
  if (!process.env.SEMECE_SKIP_BUILD) await build({ logLevel: 'warn' });
  server = await preview({ preview: { host: '127.0.0.1', port: 0, strictPort: false }, logLevel: 'warn' });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  project.provide('appUrl', `http://127.0.0.1:${address.port}/`);
}

export async function teardown() {
  await server?.close();
}
