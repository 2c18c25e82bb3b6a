/**
 * What `semece cluster` and `semece grade` accept is what the other accepts and `score` reads:
 * a stated confidence outside [0, 1] is refused by both with the same words (it was passed by
 * cluster and refused only by grade), and rows that repeat an id are reported by both and left
 * out, the first row per id kept, as `score` does (they passed silently).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import cluster from '../../../../cli/commands/cluster';
import grade from '../../../../cli/commands/grade';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-cluster-input-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const row = (id: string, question: string, confidence: (number | null)[] = [0.5, null]) => ({
  id, question, gold_answer: 'yes', model: 'm', n_samples: 2, results: ['r', 'r'], answer_extracted: ['yes', 'no'], confidence_verbalized: confidence,
});
const clustered = (r: ReturnType<typeof row>) => ({ ...r, n_clusters: 2, cluster_labels: ['yes', 'no'], cluster_assignments: [0, 1], cluster_sizes: [1, 1], modal_cluster: 0, modal_cluster_label: 'yes' });

async function run(command: typeof cluster, name: string, lines: object[], args: string[]) {
  const file = join(dir, `${name}.jsonl`);
  await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const err: string[] = [];
  const code = await command([...args, '--in', file, '--out', join(dir, `${name}.out.jsonl`)], { out: () => {}, err: (s) => err.push(s), env: {} });
  return { code, err: err.join('\n'), file, out: join(dir, `${name}.out.jsonl`) };
}

describe('cluster and grade check a row alike', () => {
  test('a stated confidence of −5 is refused by both, naming the line and the field, before anything is written', async () => {
    const c = await run(cluster, 'neg', [row('a', 'A?'), row('b', 'B?', [-5, 0.5])], ['--method', 'exact']);
    expect(c.code).toBe(2);
    expect(c.err).toBe(`semece cluster: ${c.file}:2: "confidence_verbalized"[0] = -5 is outside [0, 1]`);
    const g = await run(grade, 'neg-clustered', [clustered(row('a', 'A?')), clustered(row('b', 'B?', [-5, 0.5]))], ['--method', 'alias']);
    expect(g.code).toBe(2);
    expect(g.err).toBe(`semece grade: ${g.file}:2: "confidence_verbalized"[0] = -5 is outside [0, 1]`);
  });

  test('rows repeating an id: named on stderr with their count, the first row per id kept and the later ones left out', async () => {
    const sampled = [row('a', 'First a?'), row('b', 'First b?'), row('a', 'Second a?'), row('c', 'C?'), row('b', 'Second b?'), row('a', 'Third a?')];
    const warning = (command: string) => `semece ${command}: 3 duplicate row(s) ignored (first row per id kept, as score does), for 2 id(s): "a", "b"`;
    const c = await run(cluster, 'dup', sampled, ['--method', 'exact']);
    expect(c.code).toBe(0);
    expect(c.err).toContain(warning('cluster'));
    const written = (await readFile(c.out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(written.map((r) => [r.id, r.question])).toEqual([['a', 'First a?'], ['b', 'First b?'], ['c', 'C?']]);

    const g = await run(grade, 'dup-clustered', sampled.map(clustered), ['--method', 'alias']);
    expect(g.code).toBe(0);
    expect(g.err).toContain(warning('grade'));
    const graded = (await readFile(g.out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(graded.map((r) => [r.id, r.question])).toEqual([['a', 'First a?'], ['b', 'First b?'], ['c', 'C?']]);
  });
});
