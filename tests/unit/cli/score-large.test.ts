/**
 * `semece score` on a generated row with 300,000 classes (one sample each): scored, not a stack
 * overflow (the reader once spread every class size into Math.max); and a bad row among such
 * rows is named by file and line.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../cli/exit-codes';
import { semece } from './run-cli';

const K = 300_000;
let dir: string;

/** One question whose n = K samples each form their own class; the first class is the modal one. */
function hugeRow(overrides: Record<string, unknown> = {}) {
  const labels = Array.from({ length: K }, (_, i) => `answer ${i}`);
  return {
    id: 'huge', question: 'Name any number.', gold_answer: 'answer 0', model: 'm', n_samples: K,
    results: labels, answer_extracted: labels, confidence_verbalized: Array(K).fill(0.25),
    n_clusters: K, cluster_labels: labels, cluster_assignments: labels.map((_, i) => i), cluster_sizes: Array(K).fill(1),
    modal_cluster: 0, modal_cluster_label: 'answer 0', ...overrides,
  };
}
const small = {
  id: 'small', question: 'Two?', gold_answer: 'x', model: 'm', n_samples: 2, results: ['x', 'y'], answer_extracted: ['x', 'y'], confidence_verbalized: [0.5, 0.5],
  n_clusters: 2, cluster_labels: ['x', 'y'], cluster_assignments: [0, 1], cluster_sizes: [1, 1], modal_cluster: 0, modal_cluster_label: 'x',
};
const graded = [{ id: 'small', grade: 'INCORRECT', Y: 0 }, { id: 'huge', grade: 'CORRECT', Y: 1 }].map((g) => JSON.stringify(g)).join('\n') + '\n';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-large-'));
  await writeFile(join(dir, 'graded.jsonl'), graded);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('semece score on a row with 300,000 classes', () => {
  it('scores it: Sem1 is 1/n, the class count is n', async () => {
    const clustered = join(dir, 'huge.jsonl');
    await writeFile(clustered, `${JSON.stringify(small)}\n${JSON.stringify(hugeRow())}\n`);
    const r = await semece(['score', '--clustered', clustered, '--graded', join(dir, 'graded.jsonl'), '--B', '50']);
    expect(r.stderr).not.toMatch(/call stack|unexpected error/);
    expect(r.code).toBe(EXIT.ok);
    const huge = JSON.parse(r.stdout).questions.find((q: { id: string }) => q.id === 'huge');
    expect(huge).toMatchObject({ n: K, n_classes: K, sem1: 1 / K, verbalized: 0.25, correct: 1 });
  });

  it('a bad row among them is named by its line', async () => {
    const clustered = join(dir, 'bad.jsonl');
    await writeFile(clustered, `${JSON.stringify(small)}\n${JSON.stringify(hugeRow({ modal_cluster: 7 }))}\n`);
    const r = await semece(['score', '--clustered', clustered, '--graded', join(dir, 'graded.jsonl'), '--B', '50']);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr).toContain(`${clustered}, line 2: "modal_cluster" = 7 but the first largest class is 0 (sizes [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,… (300000 in all)])`);
    // The message shows the first sizes, not all 300,000.
    expect(r.stderr.length).toBeLessThan(2000);
  });
});
