/**
 * The entailment cache is keyed by the model's identity (a hash of its config.json and weights,
 * transformers/model-identity.ts), not by its id alone: two `tiny-nli` folders given by --model-dir,
 * clustering into the same OUT (so the same OUT.cache.jsonl), do not share decisions. The second
 * folder is the shipped model with its labels swapped (entailment ↔ contradiction, so its decisions
 * differ), or with other weights (the float32 graph as the q8 file: other bytes, same decisions).
 */
import { copyFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import cluster from '../../../../cli/commands/cluster';
import { modelIdentity } from '../../../../src/transformers/model-identity';
import { root } from '../run-cli';
import { readModelFile } from '../../../../cli/model-files';

let dir: string;
const shipped = join(root, 'public/models');
const sampled = [
  { id: 'fr', question: 'What is the capital of France?', gold_answer: 'Paris', model: 'm', n_samples: 4, results: ['r', 'r', 'r', 'r'], answer_extracted: ['Paris', 'Lyon', 'Paris, France', 'Lyon'], confidence_verbalized: [0.9, 0.8, 0.7, 0.5] },
];

/** A copy of the shipped models folder's tiny-nli under `name`/, changed by `change`. */
async function modelFolder(name: string, change: (nli: string) => Promise<void>): Promise<string> {
  const folder = join(dir, name);
  await cp(join(shipped, 'tiny-nli'), join(folder, 'tiny-nli'), { recursive: true });
  await change(join(folder, 'tiny-nli'));
  return folder;
}

async function swapLabels(nli: string) {
  const config = JSON.parse(await readFile(join(nli, 'config.json'), 'utf8'));
  config.id2label = { 0: 'entailment', 1: 'neutral', 2: 'contradiction' };
  config.label2id = { entailment: 0, neutral: 1, contradiction: 2 };
  await writeFile(join(nli, 'config.json'), JSON.stringify(config, null, 2));
}

let swapped: string;
let reweighted: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-model-identity-'));
  await writeFile(join(dir, 'sampled.jsonl'), sampled.map((r) => JSON.stringify(r)).join('\n') + '\n');
  swapped = await modelFolder('swapped', swapLabels);
  reweighted = await modelFolder('reweighted', (nli) => copyFile(join(nli, 'onnx/model.onnx'), join(nli, 'onnx/model_quantized.onnx')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function clusterWith(modelDir: string, out: string) {
  const output: string[] = [];
  const errors: string[] = [];
  const args = ['--method', 'entailment', '--model', 'tiny-nli', '--model-dir', modelDir, '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, out)];
  const code = await cluster(args, { out: (s) => output.push(s), err: (s) => errors.push(s), env: {} });
  expect(code, errors.join('\n')).toBe(0);
  const rows = (await readFile(join(dir, out), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  return { pairs: JSON.parse(output.join('\n')).nliPairs as number, assignments: rows[0].cluster_assignments as number[] };
}

describe('a model identity: a hash of config.json and the weights', () => {
  test('the same files give the same identity; other labels or other weights another', async () => {
    const of = (folder: string) => modelIdentity({ model: 'tiny-nli', localModelPath: folder + '/', readFile: readModelFile }, 'q8');
    const original = await of(shipped);
    expect(original).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await of(await modelFolder('copy', async () => {}))).toBe(original);
    expect(await of(swapped)).not.toBe(original);
    expect(await of(reweighted)).not.toBe(original);
    expect(await of(reweighted)).not.toBe(await of(swapped));
  });

  test('a folder without the model is refused by name', async () => {
    await expect(modelIdentity({ model: 'tiny-nli', localModelPath: join(dir, 'empty') + '/', readFile: readModelFile }, 'q8')).rejects.toThrow(/tiny-nli/);
  });
});

describe('semece cluster --method entailment with another tiny-nli under the same id', () => {
  test("another model's decisions (labels swapped) are not reused: the classes are the second model's own", async () => {
    const first = await clusterWith(shipped, 'labels.jsonl');
    expect(first.pairs).toBeGreaterThan(0);
    // Paris and "Paris, France" entail each other under the question; Lyon contradicts Paris.
    expect(first.assignments).toEqual([0, 1, 0, 1]);
    const fresh = await clusterWith(swapped, 'swapped-alone.jsonl');
    const second = await clusterWith(swapped, 'labels.jsonl');
    expect(second.pairs).toBe(fresh.pairs);
    expect(second.assignments).toEqual(fresh.assignments);
    expect(second.assignments).not.toEqual(first.assignments);
  });

  test('other weights under the same id ask the model again; the same folder again asks nothing', async () => {
    const first = await clusterWith(shipped, 'weights.jsonl');
    expect((await clusterWith(shipped, 'weights.jsonl')).pairs).toBe(0);
    const other = await clusterWith(reweighted, 'weights.jsonl');
    expect(other.pairs).toBe(first.pairs);
    expect(other.assignments).toEqual(first.assignments);
  });
});
