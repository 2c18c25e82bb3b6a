/**
 * `semece cluster --method entailment` on files, with the repo's tiny NLI model (remote off):
 * the classes its designed decisions give, the summary's pair count, a model that cannot load
 * named once before anything is written, and --help naming the method and the shipped model.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import cluster, { USAGE } from '../../../../cli/commands/cluster';
import { semece } from '../run-cli';

let dir: string;

const sampled = [
  { id: 'fr', question: 'What is the capital of France?', gold_answer: 'Paris', model: 'm', n_samples: 6, results: ['r', 'r', 'r', 'r', 'r', 'r'], answer_extracted: ['Paris', 'Lyon', 'Paris, France', 'paris', 'Paris in 1900', 'Lyon'], confidence_verbalized: [0.9, 0.8, null, 0.7, 0.9, 0.5] },
  { id: 'mars', question: 'How many moons does Mars have?', gold_answer: '2', model: 'm', n_samples: 4, results: ['r', 'r', 'r', 'r'], answer_extracted: ['two', '2 moons', 'three', 'a pair'], confidence_verbalized: [0.5, 0.5, 0.5, 0.5] },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-entailment-'));
  await writeFile(join(dir, 'sampled.jsonl'), sampled.map((r) => JSON.stringify(r)).join('\n') + '\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await cluster(args, { out: (s) => out.push(s), err: (s) => err.push(s), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const readRows = async (file: string) => (await readFile(join(dir, file), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));

describe('semece cluster --method entailment', () => {
  test('tiny-nli: mutual entailment under the question, classes by first appearance', async () => {
    const r = await cli(['--method', 'entailment', '--model', 'tiny-nli', '--model-dir', 'public/models', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'nli.jsonl')]);
    expect(r.err).not.toMatch(/failed/);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out);
    expect(summary).toMatchObject({ method: 'entailment', questions: 2, clustered: 2, failed: 0, nliModel: 'tiny-nli' });
    expect(summary.nliPairs).toBeGreaterThan(0);
    const rows = await readRows('nli.jsonl');
    expect(rows[0]).toMatchObject({ n_clusters: 3, cluster_labels: ['Paris', 'Lyon', 'Paris in 1900'], cluster_assignments: [0, 1, 0, 0, 2, 1], cluster_sizes: [3, 2, 1], modal_cluster: 0, modal_cluster_label: 'Paris' });
    // "moons" and "Mars" are the question's words, so "2 moons" says no more than "two".
    expect(rows[1]).toMatchObject({ cluster_assignments: [0, 0, 1, 0], modal_cluster_label: 'two' });
  });

  test('a model that cannot load is named once, with the way to fetch it, and nothing is written', async () => {
    const r = await cli(['--method', 'entailment', '--model', 'no-such-nli', '--model-dir', 'public/models', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'none.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/could not load the NLI model "no-such-nli" from \S*public\/models\/ \(pass --allow-remote-models to fetch a hub model\)/);
    await expect(stat(join(dir, 'none.jsonl'))).rejects.toThrow();
  });

  test('--help names the method, the shipped tiny model and the curated hub models', async () => {
    expect(USAGE).toMatch(/--method judge\|embedding\|entailment\|exact/);
    expect(USAGE).toContain('entailment: [--model ID] (default Xenova/nli-deberta-v3-xsmall)');
    expect(USAGE).toMatch(/Shipped with the repository \(no download\): tiny-nli/);
    expect(USAGE).toMatch(/Xenova\/distilbert-base-uncased-mnli \(about \d+ MB\)/);
    const help = await semece(['cluster', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('tiny-nli');
    expect(help.stdout).toContain('entailment');
  });
});

describe('semece cluster --method entailment, repeated', () => {
  test('the pair decisions are kept in OUT.cache.jsonl: the same command again asks the model nothing', async () => {
    const args = ['--method', 'entailment', '--model', 'tiny-nli', '--model-dir', 'public/models', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'again.jsonl')];
    const first = await cli(args);
    expect(first.code).toBe(0);
    const asked = JSON.parse(first.out).nliPairs;
    expect(asked).toBeGreaterThan(0);
    const records = (await readFile(join(dir, 'again.jsonl.cache.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(records).toHaveLength(asked);
    expect(records[0]).toEqual({ key: expect.stringMatching(/^e2:[0-9a-f]{64}$/), nli: expect.stringMatching(/^(entailment|neutral|contradiction)$/) });
    const firstRows = await readRows('again.jsonl');

    const second = await cli(args);
    expect(second.code).toBe(0);
    expect(second.err).toContain(`resuming: ${asked} NLI decision(s) already in`);
    expect(JSON.parse(second.out).nliPairs).toBe(0);
    expect(await readRows('again.jsonl')).toEqual(firstRows);
  });
});
