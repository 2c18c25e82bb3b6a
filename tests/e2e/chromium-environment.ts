/**
 * The browser project's test environment: Vitest's node environment, and at the end of each
 * worker process (Vitest tears the environment down when it stops a worker) the worker's shared
 * Chromium closed (chromium.ts), so none outlives the run. The process's exit would kill it too,
 * but Vitest stops a worker with SIGTERM, which Playwright answers by starting a graceful close,
 * and SIGKILL half a second later: a Chromium still closing then would be left with its profile.
 */
import { builtinEnvironments, type Environment } from 'vitest/environments';
import { closeWorkerChromium } from './chromium';

export default {
  name: 'chromium-node',
  viteEnvironment: 'ssr',
  async setup(global, options) {
    const node = await builtinEnvironments.node.setup(global, options);
    return {
      async teardown(g) {
        try {
          await closeWorkerChromium();
        } finally {
          await node.teardown(g);
        }
      },
    };
  },
} satisfies Environment;
