/**
 * Entailment figures, printed (not asserted), on the repo's tiny NLI classifier (tiny-nli):
 * - NLI pairs per second in Node (onnxruntime-node, batches of 16) and in Chromium (ONNX Runtime
 *   WASM, in the app's NLI worker, through the test-only page);
 * - entailment clustering of one question's 50 answers with no cache: the pairs the rule asks,
 *   and the time, for a question with few meanings and for one with many.
 */
import { readModelFile } from '../cli/model-files';
import path from 'node:path';
import { createEntailmentClusterer, type NliPair } from '../src/clustering/entailment';
import { createTransformersDecider, TINY_NLI_MODEL } from '../src/clustering/text-pair-classification';
import { withTestPage } from './test-page';

const CITIES = ['paris', 'london', 'berlin', 'rome', 'madrid', 'tokyo', 'lyon', 'vienna', 'athens', 'lisbon', 'ottawa', 'sydney'];
/** Words of no synonym group: an answer means its city, so a question's classes are its cities. */
const FILLER = ['the', 'city', 'of', 'probably', 'i', 'think', 'it', 'is', 'maybe'];

function seeded(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
}

/** Seeded answers naming one of the first `meanings` cities, with filler words (so `meanings` classes at most). */
function answers(count: number, meanings: number, seed = 1): string[] {
  const next = seeded(seed);
  return Array.from({ length: count }, () => {
    const words = [CITIES[Math.floor(next() * meanings)]];
    for (let k = Math.floor(next() * 3); k > 0; k--) words.push(FILLER[Math.floor(next() * FILLER.length)]);
    return words.join(' ');
  });
}

function pairs(count: number): NliPair[] {
  const q = 'What is the capital of France?';
  const a = answers(count * 2, CITIES.length, 7);
  return Array.from({ length: count }, (_, i) => ({ premise: `${q} ${a[2 * i]}`, hypothesis: `${q} ${a[2 * i + 1]}` }));
}

/** Pairs per second through the app's NLI worker, on its test-only page. */
async function chromiumThroughput(sample: NliPair[]): Promise<string> {
  const perSecond = await withTestPage('tests/e2e/nli-page/index.html', (page) =>
    page.evaluate(async (p) => {
      const hook = (globalThis as unknown as { __semece: { init(): Promise<unknown>; throughput(p: NliPair[], r: number): Promise<number> } }).__semece;
      await hook.init();
      return hook.throughput(p, 4);
    }, sample),
  );
  return `${perSecond.toFixed(0)} pairs/s`;
}

export default async function bench(): Promise<void> {
  const decider = createTransformersDecider({ model: TINY_NLI_MODEL, localModelPath: path.resolve('public/models') + path.sep, allowRemoteModels: false, readFile: readModelFile });
  await decider.ready();
  const corpus = pairs(2000);
  await decider.decide(corpus.slice(0, 32));
  const t0 = performance.now();
  const labels = await decider.decide(corpus);
  const ms = performance.now() - t0;
  const share = (l: string) => labels.filter((x) => x === l).length;
  console.log(`entailment (Node, tiny-nli, batches of 16): ${corpus.length} pairs in ${ms.toFixed(0)} ms = ${((corpus.length / ms) * 1000).toFixed(0)} pairs/s (entailment ${share('entailment')}, neutral ${share('neutral')}, contradiction ${share('contradiction')})`);

  for (const meanings of [3, 12]) {
    let asked = 0;
    const clusterer = createEntailmentClusterer({ decider, onDecided: (n) => (asked += n) });
    const a = answers(50, meanings, 11);
    const t1 = performance.now();
    const r = await clusterer.cluster('What is the capital of France?', a);
    const msCluster = performance.now() - t1;
    const classes = r.ok ? r.value.length : `failed (${r.error.message})`;
    console.log(`entailment clustering of 50 answers naming ${meanings} cities (no cache): ${classes} classes, ${asked} pairs asked, ${msCluster.toFixed(1)} ms`);
  }

  try {
    console.log(`entailment (Chromium, WASM, in the app's NLI worker, 4 × 500 pairs): ${await chromiumThroughput(corpus.slice(0, 500))}`);
  } catch (e) {
    console.log(`entailment (Chromium, WASM): not measured (${(e as Error).message.split('\n')[0]})`);
  }
}
