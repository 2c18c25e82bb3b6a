/**
 * Clustering figures, printed (not asserted):
 * - embedding throughput in Node (onnxruntime-node) and in Chromium (ONNX Runtime WASM, in the
 *   app's embedding worker, through the test-only page) on the repo's tiny model, texts per second;
 * - clustering 50 answers after embedding (50 distinct texts: the worst case for the
 *   agglomerative step), target well under 50 ms;
 * - the exact method on a 1,000-question × 50-sample run, target under 1 s.
 */
import { readModelFile } from '../cli/model-files';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { agglomerativeAverage, DEFAULT_SIMILARITY_THRESHOLD } from '../src/clustering/agglomerative';
import { classesFromGroupVectors, mergeNormalized } from '../src/clustering/embedding';
import { clusterExact } from '../src/clustering/exact';
import { createTransformersEmbedder, TINY_EMBEDDING_MODEL } from '../src/clustering/feature-extraction';
import { classesToRowFields } from '../src/clustering/row-fields';
import { withTestPage } from './test-page';

const WORDS = ['paris', 'london', 'two', 'three', 'red', 'blue', 'big', 'small', 'dog', 'cat', 'einstein', 'newton', 'gold', 'iron', 'river', 'ocean', 'the', 'city', 'of', 'probably', '1969', '1945'];

/** Seeded texts of 1–5 words from the tiny model's vocabulary. */
function texts(count: number, seed = 1): string[] {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 5) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' '));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Texts per second through the app's embedding worker, on its test-only page. */
async function chromiumThroughput(corpus: string[]): Promise<string> {
  const perSecond = await withTestPage('tests/e2e/embedding-page/index.html', (page) =>
    page.evaluate(async (texts) => {
      const hook = (globalThis as unknown as { __semece: { init(): Promise<unknown>; throughput(t: string[], r: number): Promise<number> } }).__semece;
      await hook.init();
      return hook.throughput(texts, 4);
    }, corpus.slice(0, 500)),
  );
  return `${perSecond.toFixed(0)} texts/s`;
}

export default async function bench(): Promise<void> {
  const embedder = createTransformersEmbedder({ model: TINY_EMBEDDING_MODEL, localModelPath: path.resolve('public/models') + path.sep, allowRemoteModels: false, readFile: readModelFile });
  await embedder.ready();
  const corpus = texts(2000);
  await embedder.embed(corpus.slice(0, 64));
  let t0 = performance.now();
  const vectors = await embedder.embed(corpus);
  let ms = performance.now() - t0;
  console.log(`embedding (Node, tiny model, batches of 32): ${corpus.length} texts in ${ms.toFixed(0)} ms = ${((corpus.length / ms) * 1000).toFixed(0)} texts/s`);

  try {
    console.log(`embedding (Chromium, WASM, in the app's worker, 4 × 500 texts): ${await chromiumThroughput(corpus)}`);
  } catch (e) {
    console.log(`embedding (Chromium, WASM): not measured (${(e as Error).message.split('\n')[0]})`);
  }

  // 50 distinct answers: every one is its own item in the agglomerative step.
  const fifty = vectors.slice(0, 50);
  const answers = corpus.slice(0, 50).map((t, i) => `${t} ${i}`);
  const groups = mergeNormalized(answers);
  const runs: number[] = [];
  for (let r = 0; r < 200; r++) {
    t0 = performance.now();
    classesFromGroupVectors(answers, groups, fifty, DEFAULT_SIMILARITY_THRESHOLD);
    runs.push(performance.now() - t0);
  }
  console.log(`clustering 50 distinct answers after embedding (threshold ${DEFAULT_SIMILARITY_THRESHOLD}): median ${median(runs).toFixed(3)} ms, max ${Math.max(...runs).toFixed(3)} ms (target ≪ 50 ms)`);
  const big = vectors.slice(0, 300);
  t0 = performance.now();
  agglomerativeAverage(big, DEFAULT_SIMILARITY_THRESHOLD);
  console.log(`agglomerative on 300 distinct vectors: ${(performance.now() - t0).toFixed(1)} ms`);

  // 1,000 questions × 50 samples, a few surface variants of a few answers per question.
  const variants = (a: string) => [a, a.toUpperCase(), `The ${a}.`, ` ${a} `, `${a}!`];
  const run = Array.from({ length: 1000 }, (_, q) => {
    const base = [`answer ${q}`, `other ${q % 7}`, `third ${q % 13}`, `rare ${q}`];
    return Array.from({ length: 50 }, (_, i) => variants(base[(i * 7 + q) % (i % 5 === 0 ? 4 : 2)])[(i * 3) % 5]);
  });
  const exactRuns: number[] = [];
  for (let r = 0; r < 5; r++) {
    t0 = performance.now();
    for (const answersOfQuestion of run) classesToRowFields(clusterExact(answersOfQuestion), answersOfQuestion.length);
    exactRuns.push(performance.now() - t0);
  }
  ms = median(exactRuns);
  console.log(`exact method, 1,000 questions × 50 samples (with row fields): median ${ms.toFixed(0)} ms over 5 runs (target < 1000 ms)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await bench();
