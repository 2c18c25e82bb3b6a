/**
 * A run whose samples are all cached already (as after a batch result file was ingested), in
 * Node over fake-indexeddb: time per stage to the first report and heap growth. Not the browser
 * figure (bench/batch-ingest.bench.ts is), but the same runner code, quick to repeat.
 * SEMECE_CACHED_QUESTIONS sets the size (default 2000 questions × 50 samples).
 * Run: npm run bench -- cached-run (heap figures are after a GC only with node --expose-gc).
 */
import 'fake-indexeddb/auto';
import { openStores } from '../src/store/stores';
import { executeRun, newRun } from '../src/pipeline/runner';
import { realStages } from '../src/workers/real-stages';
import { scoreRun } from '../src/pipeline/run-scoring';
import { questionKeys } from '../src/pipeline/sampling';
import { extractSample } from '../src/pipeline/extract';
import type { RunSpec } from '../src/model/run-spec';
import { pathToFileURL } from 'node:url';

const N = 50;
const Q = Number(process.env.SEMECE_CACHED_QUESTIONS ?? 2000);
const ANSWERS = ['Paris', 'Lyon', 'Marseille', 'I do not know', 'Nice'];
const model = { kind: 'openai' as const, preset: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini' };
const prompt = 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".';
const spec: RunSpec = {
  title: 'cached',
  dataset: { name: 'bench', source: 'bench', questions: Array.from({ length: Q }, (_, i) => ({ id: `q${i}`, question: `Question number ${i}?`, answer: ANSWERS[i % 5] })) },
  models: [model],
  sampling: { n: N, temperature: 1, maxTokens: 256, prompt, concurrency: 8 },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
};
const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => (gc?.(), process.memoryUsage().heapUsed);
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;

export default async function cachedRunBench(): Promise<void> {
  const stores = await openStores(`cached-bench-${Date.now()}`);
  const settings = { temperature: 1, maxTokens: 256 };
  for (let qi = 0; qi < Q; qi++) {
    const keys = await questionKeys({ config: model }, settings, prompt, spec.dataset.questions[qi], N);
    await stores.samples.put(keys.map((key, j) => ({ key, sample: extractSample(`Brief reasoning.\nAnswer: ${ANSWERS[(qi * 7 + j * j) % (2 + (qi % 4))]}\nConfidence: ${50 + ((qi + j) % 50)}%`, 'stop') })));
  }
  await stores.samples.flush();
  const run = newRun(spec);
  await stores.runs.saveRun(run);
  const base = heap();
  let peak = 0;
  const stageAt: Record<string, number> = {};
  const retained: Record<string, number> = {};
  const t0 = performance.now();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed - base)), 50);
  const done = await executeRun(run.id, {}, {
    runs: stores.runs, samples: stores.samples, stageCache: stores.stages,
    stages: realStages({ score: (input) => scoreRun(input) }),
    onProgress: (p) => {
      if (stageAt[p.stage] === undefined) {
        stageAt[p.stage] = performance.now() - t0;
        // What the stages hold between them (after a GC): the sampled rows at the cluster stage, the report at the report stage.
        if (gc) retained[p.stage] = heap() - base;
      }
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    },
  }, new AbortController().signal);
  clearInterval(timer);
  const ms = performance.now() - t0;
  console.log(`cached run ${Q} × ${N}: ${done.status} in ${(ms / 1000).toFixed(1)} s; requests ${done.progress.requests.done}; stage starts (s) ${Object.entries(stageAt).map(([s, t]) => `${s} ${(t / 1000).toFixed(1)}`).join(', ')}; peak heap growth ${mb(peak)}${gc ? `; retained after GC at ${Object.entries(retained).map(([s, b]) => `${s} ${mb(b)}`).join(', ')}` : ''}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await cachedRunBench();
