/**
 * Issue 25 (b): the cluster stage reuses a cached clustering only when the model that made it is
 * the one loaded now. Two folders hold a `tiny-nli` (the same model id): the shipped one, and a
 * copy with its config's labels swapped (other config.json, so another identity). A clustering the
 * shipped model made is reused by the shipped model and not by the copy; an entry stored before
 * identities were recorded is still reused (its key is unchanged).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createClusterer } from '../../../src/clustering/clusterer-registry';
import { modelIdentity } from '../../../src/transformers/model-identity';
import { createTransformersDecider } from '../../../src/clustering/text-pair-classification';
import type { ClusteringSpec, RunSpec } from '../../../src/model/run-spec';
import type { SampledRow } from '../../../src/model/rows';
import { clusterStage } from '../../../src/pipeline/cluster-grade-stages';
import { RunMeter } from '../../../src/pipeline/run-meter';
import { readModelFile } from '../../../cli/model-files';
import { MemoryStageCache } from '../../mock/memory-stores';

const shipped = join(process.cwd(), 'public/models');
let dir: string;
let swapped: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-cluster-identity-'));
  swapped = join(dir, 'swapped');
  await cp(join(shipped, 'tiny-nli'), join(swapped, 'tiny-nli'), { recursive: true });
  const configPath = join(swapped, 'tiny-nli', 'config.json');
  const config = JSON.parse(await readFile(configPath, 'utf8'));
  config.id2label = { 0: 'entailment', 1: 'neutral', 2: 'contradiction' };
  config.label2id = { entailment: 0, neutral: 1, contradiction: 2 };
  await writeFile(configPath, JSON.stringify(config, null, 2));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const clustering = { method: 'entailment', model: 'tiny-nli' } as ClusteringSpec;
const row: SampledRow = {
  id: 'fr', question: 'What is the capital of France?', gold_answer: 'Paris', model: 'm', n_samples: 4,
  results: ['r', 'r', 'r', 'r'], answer_extracted: ['Paris', 'Lyon', 'Paris, France', 'Lyon'], confidence_verbalized: [0.9, 0.8, 0.7, 0.5],
};
const spec: RunSpec = {
  title: 'identity',
  dataset: { name: 'one', source: 'test', questions: [{ id: 'fr', question: row.question, answer: 'Paris' }] },
  models: [],
  sampling: { n: 4, temperature: 1, maxTokens: 16, prompt: '{question}', concurrency: 1 },
  clustering,
  grading: { method: 'alias' },
};

/** The cluster stage over `row` with the tiny-nli found in `folder`: how many came from the cache, and the pairs the model was asked. */
async function clusterWith(folder: string, cache: MemoryStageCache) {
  let asked = 0;
  const clusterer = createClusterer(clustering, {
    decider: ({ model, allowRemote }) => createTransformersDecider({ model, localModelPath: `${folder}/`, readFile: readModelFile, allowRemoteModels: allowRemote }),
    onDecided: (n) => (asked += n),
  });
  const meter = new RunMeter(undefined, {}, () => 0);
  const result = await clusterStage([row], spec, clusterer, cache, meter, () => {}, new AbortController().signal);
  expect(result.rows).toHaveLength(1);
  return { cached: meter.progress.stages.cluster.cached, asked };
}

const identityOf = (folder: string) => modelIdentity({ model: 'tiny-nli', localModelPath: `${folder}/`, readFile: readModelFile }, 'q8');

test('a clustering is reused by the model that made it, not by another model under the same id', async () => {
  const cache = new MemoryStageCache();
  expect(await clusterWith(shipped, cache)).toMatchObject({ cached: 0 });
  const [stored] = [...cache.clusterings.values()];
  expect(stored.identity).toBe(await identityOf(shipped));

  // The same model again: a hit, the model asked nothing.
  expect(await clusterWith(shipped, cache)).toEqual({ cached: 1, asked: 0 });

  // Another config.json under the same id: clustered again, and stored with its own identity.
  const other = await clusterWith(swapped, cache);
  expect(other.cached).toBe(0);
  expect(other.asked).toBeGreaterThan(0);
  expect(cache.clusterings.size).toBe(1);
  expect([...cache.clusterings.values()][0].identity).toBe(await identityOf(swapped));
  expect(await identityOf(swapped)).not.toBe(await identityOf(shipped));
});

test('an entry stored before identities were recorded is still a hit (its key is unchanged)', async () => {
  const cache = new MemoryStageCache();
  await clusterWith(shipped, cache);
  for (const [key, entry] of cache.clusterings) cache.clusterings.set(key, { key, result: entry.result, storedAt: entry.storedAt });
  expect(await clusterWith(swapped, cache)).toEqual({ cached: 1, asked: 0 });
});
