/**
 * A ReplyGenerator that runs the model in this thread: Node (the CLI, tests, benchmarks) and the
 * generation worker's own backend. The model is loaded once, on first use; concurrent first
 * calls share one load, and a failed load is forgotten so a later call can try again.
 */
import { generateReplies, loadGenerator, type GenerationLoadProgress, type GenerationSource, type LoadedGenerator } from './generate.ts';
import type { ReplyGenerator } from './in-browser-provider.ts';

export interface LocalGenerator extends ReplyGenerator {
  ready(): Promise<LoadedGenerator>;
  dispose(): Promise<void>;
}

export function createLocalGenerator(source: GenerationSource, onProgress?: (p: GenerationLoadProgress) => void, options: { seed?: number } = {}): LocalGenerator {
  let loading: Promise<LoadedGenerator> | undefined;
  // With a seed, request k draws from seed + k: a whole run (its requests go in order, one at a
  // time) is reproducible, without every request repeating the first one's draws.
  let requests = 0;
  let device: string | undefined;
  const ready = () => {
    loading ??= loadGenerator(source, onProgress).then(
      (g) => {
        device = g.device;
        return g;
      },
      (err) => {
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  return {
    ready,
    async generate(request, signal) {
      const g = await ready();
      const k = requests++;
      const seeded = options.seed !== undefined && request.seed === undefined ? { ...request, seed: options.seed + k } : request;
      return generateReplies(g, seeded, { signal });
    },
    notes: () => (device ? [`generated in this process with Transformers.js on ${device === 'cpu' ? 'onnxruntime-node (CPU)' : device}`] : []),
    async dispose() {
      const g = await loading?.catch(() => undefined);
      loading = undefined;
      await g?.dispose();
    },
  };
}
