/**
 * `semece score` with an embedding clustering's answer similarity in the rows (answer_similarity):
 * EigV, Deg and Ecc over the recorded cosines where every row holds them, over the partition
 * otherwise, and the report says which (graphSimilarity). Hand values (confidence forms 1/EigV,
 * 1 − Deg, 1/(1 + Ecc²)):
 *
 *   q1 correct    classes 0 0 1, groups 0 0 1 at cosine ½: EigV 1.3, Deg 2/9, Ecc 1
 *                 (core grouped-graph-uncertainty test) → 1/1.3, 7/9, ½; on the partition 1/2, 5/9, 1/2
 *   q2 incorrect  three answers at cosine 0: the partition's K = 3 → ⅓, ⅓, ⅓ either way
 *   q3 correct    one answer → 1, 1, 1
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import run from '../../../../cli/commands/score';
import { parseReport } from '../../../../src/formats/report-import';

const Q = [
  { classes: [0, 0, 1], groups: [0, 0, 1], matrix: [1, 0.5, 0.5, 1], Y: 1 },
  { classes: [0, 1, 2], groups: [0, 1, 2], matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1], Y: 0 },
  { classes: [0, 0, 0], groups: [0, 0, 0], matrix: [1], Y: 1 },
];
const OVER_COSINES = { eigv: [1 / 1.3, 1 / 3, 1], degree: [7 / 9, 1 / 3, 1], eccentricity: [0.5, 1 / 3, 1] };
const OVER_PARTITION = { eigv: [0.5, 1 / 3, 1], degree: [5 / 9, 1 / 3, 1], eccentricity: [0.5, 1 / 3, 1] };

let dir: string;
async function files(withSimilarity: (i: number) => boolean) {
  const clustered = join(dir, `c-${Q.map((_, i) => (withSimilarity(i) ? 1 : 0)).join('')}.jsonl`);
  const graded = join(dir, 'graded.jsonl');
  const rows = Q.map((q, i) => {
    const K = Math.max(...q.classes) + 1;
    const labels = Array.from({ length: K }, (_, k) => `a${k}`);
    return JSON.stringify({
      id: `q${i + 1}`, question: `q${i + 1}?`, gold_answer: 'a0', model: 'hand', n_samples: 3,
      results: q.classes.map((c) => `Answer: a${c}`), answer_extracted: q.classes.map((c) => `a${c}`), confidence_verbalized: [0.5, 0.5, 0.5],
      n_clusters: K, cluster_labels: labels, cluster_assignments: q.classes, cluster_sizes: labels.map((_, k) => q.classes.filter((c) => c === k).length),
      modal_cluster: 0, modal_cluster_label: 'a0',
      ...(withSimilarity(i) ? { answer_similarity: { source: 'embedding-cosine', groups: q.groups, matrix: q.matrix } } : {}),
    });
  });
  await writeFile(clustered, rows.join('\n') + '\n');
  await writeFile(graded, Q.map((q, i) => JSON.stringify({ id: `q${i + 1}`, grade: q.Y ? 'CORRECT' : 'INCORRECT', Y: q.Y })).join('\n') + '\n');
  return { clustered, graded };
}
async function score(f: { clustered: string; graded: string }, report: string) {
  const out: string[] = [];
  const code = await run(['--clustered', f.clustered, '--graded', f.graded, '--B', '20', '--signals', 'eigv,degree,eccentricity', '--report', report], { out: (t) => out.push(t), err: () => {} });
  expect(code).toBe(0);
  const doc = JSON.parse(out.join(''));
  const parsed = parseReport(await readFile(report, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return { doc, report: parsed.value };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-graph-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('graph signals over the recorded answer similarity', () => {
  test('every row holds it: the hand values over the cosines, and the report says so', async () => {
    const { doc, report } = await score(await files(() => true), join(dir, 'r1.json'));
    for (const [s, want] of Object.entries(OVER_COSINES)) {
      doc.questions.forEach((q: { signals: Record<string, number> }, i: number) => expect(q.signals[s], `${s} q${i + 1}`).toBeCloseTo(want[i], 12));
    }
    expect(report.models[0].graphSimilarity).toBe('embedding-cosine');
  });

  test('a row without it: every question over the partition, said', async () => {
    const { doc, report } = await score(await files((i) => i !== 2), join(dir, 'r2.json'));
    for (const [s, want] of Object.entries(OVER_PARTITION)) {
      doc.questions.forEach((q: { signals: Record<string, number> }, i: number) => expect(q.signals[s], `${s} q${i + 1}`).toBeCloseTo(want[i], 12));
    }
    expect(report.models[0].graphSimilarity).toBe('partition');
  });

  test('a malformed similarity is refused with the line and the field', async () => {
    const f = await files(() => true);
    const text = (await readFile(f.clustered, 'utf8')).replace('"matrix":[1,0.5,0.5,1]', '"matrix":[1,1.5,0.5,1]');
    await writeFile(f.clustered, text);
    const err: string[] = [];
    const code = await run(['--clustered', f.clustered, '--graded', f.graded, '--B', '20'], { out: () => {}, err: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/line 1.*"answer_similarity" values must lie in \[0, 1\], got number 1\.5/s);
  });
});
