/**
 * `semece cluster` and `semece grade` end to end on files: exact, embedding (the repo's tiny
 * model, remote off) and judge (loopback mock) clustering; alias and judge grading; and the score
 * reader accepting the result, with the failed question excluded and counted.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import cluster from '../../../../cli/commands/cluster';
import grade from '../../../../cli/commands/grade';
import { MockProviderServer } from '../../../mock/provider-server';
import { readAuthorsRows } from '../../../../src/formats/authors-rows';
import { scoreAuthorsRows } from '../../../../src/pipeline/score-stage';

const KEY = 'sk-cluster-cli-test-0123456789';
let dir: string;
let mock: MockProviderServer;

const sampled = [
  { id: 'fr', question: 'What is the capital of France?', gold_answer: 'Paris', gold_answer_aliases: ['Paris, France'], model: 'm', n_samples: 5, results: ['r', 'r', 'r', 'r', 'r'], answer_extracted: ['Paris', 'paris', 'Lyon', 'the city of Paris', 'Paris'], confidence_verbalized: [0.9, 0.8, null, 0.7, 0.9] },
  { id: 'two', question: 'How many moons does Mars have?', gold_answer: '2', gold_answer_aliases: ['two'], model: 'm', n_samples: 4, results: ['r', 'r', 'r', 'r'], answer_extracted: ['two', '2', 'three', 'two'], confidence_verbalized: [0.5, 0.5, 0.5, 0.5] },
  { id: 'mc', question: 'Which city is on the Rhône and the Saône?', options: ['Paris', 'Lyon', 'Nice'], gold_answer: 'B', model: 'm', n_samples: 3, results: ['r', 'r', 'r'], answer_extracted: ['B', 'Lyon', 'A'], confidence_verbalized: [null, null, null] },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-cluster-'));
  await writeFile(join(dir, 'sampled.jsonl'), sampled.map((r) => JSON.stringify(r)).join('\n') + '\n');
  mock = await MockProviderServer.start({ apiKey: KEY });
  mock.responder = (req) => {
    if (/check whether an answer/.test(req.system)) return /"answer":"(Paris|Lyon|B)\b/.test(req.user) ? 'CORRECT' : 'INCORRECT';
    // Clustering judge (answers listed once each: Paris, paris, Lyon, the city of Paris):
    // a good partition for France and the MC question, a broken one for Mars.
    if (req.user.includes('capital of France')) return '{"clusters":[{"label":"Paris","members":[0,1,3]},{"label":"Lyon","members":[2]}]}';
    if (req.user.includes('Rhône')) return '```json\n{"clusters":[{"label":"Lyon","members":[0,1]},{"label":"Paris","members":[2]}]}\n```';
    return '{"clusters":[{"label":"2","members":[0,1]}]}';
  };
});
afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(command: typeof cluster, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(args, { out: (s) => out.push(s), err: (s) => err.push(s), env: { OPENAI_API_KEY: KEY } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const readRows = async (file: string) => (await readFile(join(dir, file), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));

describe('semece cluster / grade', () => {
  test('exact: normalized match, the chosen option for multiple choice', async () => {
    const r = await cli(cluster, ['--method', 'exact', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'exact.jsonl')]);
    expect(r.code).toBe(0);
    const rows = await readRows('exact.jsonl');
    expect(rows[0]).toMatchObject({ n_clusters: 3, cluster_labels: ['Paris', 'Lyon', 'the city of Paris'], cluster_assignments: [0, 0, 1, 2, 0], cluster_sizes: [3, 1, 1], modal_cluster: 0, modal_cluster_label: 'Paris', gold_answer_aliases: ['Paris, France'] });
    expect(rows[2]).toMatchObject({ cluster_labels: ['B', 'A'], cluster_assignments: [0, 0, 1], modal_cluster_label: 'B', options: ['Paris', 'Lyon', 'Nice'] });
  });

  test('embedding on the tiny model, then alias grading; the score reader accepts both files', async () => {
    const c = await cli(cluster, ['--method', 'embedding', '--embedding-model', 'tiny-embedder', '--model-dir', 'public/models', '--threshold', '0.85', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'emb.jsonl')]);
    expect(c.err).not.toMatch(/failed/);
    expect(c.code).toBe(0);
    const rows = await readRows('emb.jsonl');
    expect(rows[0]).toMatchObject({ cluster_assignments: [0, 0, 1, 0, 0], cluster_labels: ['Paris', 'Lyon'] });
    expect(rows[1]).toMatchObject({ cluster_assignments: [0, 0, 1, 0], modal_cluster_label: 'two' });
    // The answers' cosines kept for the graph signals: a group per sample, a g×g matrix with 1 on its diagonal.
    const sim = rows[0].answer_similarity;
    expect(sim.source).toBe('embedding-cosine');
    expect(sim.groups).toHaveLength(5);
    const groups = Math.max(...sim.groups) + 1;
    expect(sim.matrix).toHaveLength(groups * groups);
    for (let a = 0; a < groups; a++) expect(sim.matrix[a * groups + a]).toBe(1);

    const g = await cli(grade, ['--method', 'alias', '--in', join(dir, 'emb.jsonl'), '--out', join(dir, 'emb-graded.jsonl')]);
    expect(g.code).toBe(0);
    const graded = await readRows('emb-graded.jsonl');
    expect(graded.map((r) => [r.id, r.grade, r.Y])).toEqual([['fr', 'CORRECT', 1], ['two', 'CORRECT', 1], ['mc', 'CORRECT', 1]]);
    // The authors' fields, the rule that matched, and how the row was graded (formats/row-methods.ts).
    expect(Object.keys(graded[0]).sort()).toEqual(['Y', 'gold_answer', 'grade', 'grade_rule', 'grading_detail', 'grading_method', 'id', 'modal_cluster_label', 'model', 'question']);

    const joined = readAuthorsRows({ text: await readFile(join(dir, 'emb.jsonl'), 'utf8'), file: 'emb.jsonl' }, { text: await readFile(join(dir, 'emb-graded.jsonl'), 'utf8'), file: 'emb-graded.jsonl' });
    expect(joined.ok).toBe(true);
    if (joined.ok) expect(joined.value.questions).toHaveLength(3);
    // Every row holds the cosines, so the graph signals are computed over them, and the report says so.
    if (joined.ok) expect(scoreAuthorsRows(joined.value, { B: 20, signals: ['eigv'] }).graphSimilarity).toBe('embedding-cosine');
  });

  test('judge against the mock: a failed question is written with its marker, graded null, and excluded by the score reader', async () => {
    const base = ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'judge'];
    const c = await cli(cluster, ['--method', 'judge', ...base, '--retries', '1', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'judge.jsonl')]);
    expect(c.code).toBe(3);
    const summary = JSON.parse(c.out);
    expect(summary).toMatchObject({ method: 'judge', questions: 3, clustered: 2, failed: 1, calls: 4 });
    expect(summary.failures[0]).toMatchObject({ id: 'two', reason: expect.stringMatching(/indices missing: 2.*after 2 attempts/) });
    expect(summary.usage.inputTokens).toBeGreaterThan(0);
    expect(c.out + c.err).not.toContain(KEY);
    const rows = await readRows('judge.jsonl');
    expect(rows[0]).toMatchObject({ cluster_labels: ['Paris', 'Lyon'], cluster_assignments: [0, 0, 1, 0, 0] });
    expect(rows[1]).toMatchObject({ n_clusters: 0, cluster_assignments: [], modal_cluster: -1, error: expect.stringMatching(/^clustering failed \(judge-partition\)/) });

    const g = await cli(grade, ['--method', 'judge', ...base, '--in', join(dir, 'judge.jsonl'), '--out', join(dir, 'judge-graded.jsonl')]);
    expect(g.code).toBe(3);
    const graded = await readRows('judge-graded.jsonl');
    expect(graded.map((r) => [r.id, r.grade, r.Y])).toEqual([['fr', 'CORRECT', 1], ['two', null, null], ['mc', 'CORRECT', 1]]);

    const joined = readAuthorsRows({ text: await readFile(join(dir, 'judge.jsonl'), 'utf8'), file: 'judge.jsonl' }, { text: await readFile(join(dir, 'judge-graded.jsonl'), 'utf8'), file: 'judge-graded.jsonl' });
    expect(joined.ok).toBe(true);
    if (joined.ok) {
      expect(joined.value.questions.map((q) => q.clustered.id)).toEqual(['fr', 'mc']);
      expect(joined.value.excluded).toEqual([expect.objectContaining({ id: 'two' })]);
    }
  });

  test('bad usage and bad input are named', async () => {
    expect((await cli(cluster, ['--method', 'kmeans', '--in', 'x', '--out', 'y'])).err).toMatch(/--method must be judge, embedding, entailment or exact/);
    expect((await cli(cluster, ['--method', 'judge', '--provider', 'openai', '--model', 'm', '--in', 'x', '--out', 'y'])).code).toBe(2);
    await writeFile(join(dir, 'bad.jsonl'), JSON.stringify({ id: 'a', question: 'q', gold_answer: 'g', model: 'm', n_samples: 2, answer_extracted: ['x'] }) + '\n');
    const r = await cli(cluster, ['--method', 'exact', '--in', join(dir, 'bad.jsonl'), '--out', join(dir, 'o.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.jsonl:1: .*answer_extracted/);
  });
});
