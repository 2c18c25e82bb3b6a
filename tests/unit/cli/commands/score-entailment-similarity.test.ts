/**
 * The graph signals over the entailment clustering's entailment probabilities: `semece cluster
 * --method entailment --similarity entailment` on the repository's tiny NLI model writes them into
 * the rows, and `semece score` uses them as it uses cosines, the report stating the source. Hand
 * values as in score-graph-similarity.test.ts (q1: groups 0 0 1 at ½ → EigV 1.3, Deg 2/9, Ecc 1,
 * confidences 1/1.3, 7/9, ½; q2: three answers at 0 → ⅓; q3: one answer → 1); a mix of sources is
 * scored over the partition.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import cluster from '../../../../cli/commands/cluster';
import score from '../../../../cli/commands/score';
import { parseReport } from '../../../../src/formats/report-import';
import { uncertaintyMethodNotes } from '../../../../src/ui/report/uncertainty-methods-data';

const Q = [
  { classes: [0, 0, 1], groups: [0, 0, 1], matrix: [1, 0.5, 0.5, 1], Y: 1 },
  { classes: [0, 1, 2], groups: [0, 1, 2], matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1], Y: 0 },
  { classes: [0, 0, 0], groups: [0, 0, 0], matrix: [1], Y: 1 },
];
const OVER_PROBABILITIES = { eigv: [1 / 1.3, 1 / 3, 1], degree: [7 / 9, 1 / 3, 1], eccentricity: [0.5, 1 / 3, 1] };
const OVER_PARTITION = { eigv: [0.5, 1 / 3, 1], degree: [5 / 9, 1 / 3, 1], eccentricity: [0.5, 1 / 3, 1] };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-entail-sim-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function handFiles(sourceOf: (i: number) => string) {
  const clustered = join(dir, `c-${Q.map((_, i) => sourceOf(i)[0]).join('')}.jsonl`);
  const graded = join(dir, 'graded.jsonl');
  const rows = Q.map((q, i) => {
    const K = Math.max(...q.classes) + 1;
    const labels = Array.from({ length: K }, (_, k) => `a${k}`);
    return JSON.stringify({
      id: `q${i + 1}`, question: `q${i + 1}?`, gold_answer: 'a0', model: 'hand', n_samples: 3,
      results: q.classes.map((c) => `Answer: a${c}`), answer_extracted: q.classes.map((c) => `a${c}`), confidence_verbalized: [0.5, 0.5, 0.5],
      n_clusters: K, cluster_labels: labels, cluster_assignments: q.classes, cluster_sizes: labels.map((_, k) => q.classes.filter((c) => c === k).length),
      modal_cluster: 0, modal_cluster_label: 'a0',
      answer_similarity: { source: sourceOf(i), groups: q.groups, matrix: q.matrix },
    });
  });
  await writeFile(clustered, rows.join('\n') + '\n');
  await writeFile(graded, Q.map((q, i) => JSON.stringify({ id: `q${i + 1}`, grade: q.Y ? 'CORRECT' : 'INCORRECT', Y: q.Y })).join('\n') + '\n');
  return { clustered, graded };
}

async function scored(f: { clustered: string; graded: string }, name: string) {
  const out: string[] = [];
  const err: string[] = [];
  const report = join(dir, name);
  const code = await score(['--clustered', f.clustered, '--graded', f.graded, '--B', '20', '--signals', 'eigv,degree,eccentricity', '--report', report], { out: (t) => out.push(t), err: (t) => err.push(t) });
  expect(code, err.join('\n')).toBe(0);
  const parsed = parseReport(await readFile(report, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return { doc: JSON.parse(out.join('')), report: parsed.value };
}

describe('graph signals over entailment probabilities', () => {
  test('rows holding them: the hand values, and the report (and its note) name the source', async () => {
    const { doc, report } = await scored(await handFiles(() => 'entailment-probability'), 'r1.json');
    for (const [s, want] of Object.entries(OVER_PROBABILITIES)) {
      doc.questions.forEach((q: { signals: Record<string, number> }, i: number) => expect(q.signals[s], `${s} q${i + 1}`).toBeCloseTo(want[i], 12));
    }
    expect(report.models[0].graphSimilarity).toBe('entailment-probability');
    expect(uncertaintyMethodNotes(report.models[0], ['eigv'])).toEqual([expect.stringMatching(/over the NLI model's entailment probabilities between the answers/)]);
  });

  test('rows from two sources: the partition, said', async () => {
    const { doc, report } = await scored(await handFiles((i) => (i === 1 ? 'embedding-cosine' : 'entailment-probability')), 'r2.json');
    for (const [s, want] of Object.entries(OVER_PARTITION)) {
      doc.questions.forEach((q: { signals: Record<string, number> }, i: number) => expect(q.signals[s], `${s} q${i + 1}`).toBeCloseTo(want[i], 12));
    }
    expect(report.models[0].graphSimilarity).toBe('partition');
  });

  test('semece cluster --similarity entailment on the tiny NLI model, then semece score: the recorded probabilities are what EigV reads', async () => {
    const sampled = join(dir, 'sampled.jsonl');
    const answers = ['Paris', 'Paris 1900', 'Paris', 'Lyon'];
    await writeFile(sampled, JSON.stringify({ id: 'fr', question: '', gold_answer: 'Paris', model: 'm', n_samples: 4, results: answers, answer_extracted: answers, confidence_verbalized: [0.5, 0.5, 0.5, 0.5] }) + '\n');
    const clusteredPath = join(dir, 'entail.jsonl');
    const err: string[] = [];
    const code = await cluster(['--method', 'entailment', '--model', 'tiny-nli', '--model-dir', 'public/models', '--similarity', 'entailment', '--in', sampled, '--out', clusteredPath], { out: () => {}, err: (t) => err.push(t) });
    expect(code, err.join('\n')).toBe(0);
    const row = JSON.parse((await readFile(clusteredPath, 'utf8')).trim());
    expect(row.clustering_detail).toMatch(/answer similarity from the entailment probabilities/);
    const sim = row.answer_similarity;
    expect(sim.source).toBe('entailment-probability');
    expect(sim.groups).toEqual([0, 1, 0, 2]);
    // Paris ⇄ Paris 1900: logits [-1, 0.5, -2] one way and [-1, 0.5, 2] the other (text-pair-classification.test.ts).
    const p = (e: number) => Math.exp(e) / (Math.exp(-1) + Math.exp(0.5) + Math.exp(e));
    expect(sim.matrix[1]).toBeCloseTo(Math.round(((p(-2) + p(2)) / 2) * 1e4) / 1e4, 12);
    expect(sim.matrix).toHaveLength(9);

    const graded = join(dir, 'entail-graded.jsonl');
    await writeFile(graded, JSON.stringify({ id: 'fr', grade: 'CORRECT', Y: 1 }) + '\n');
    const { doc, report } = await scored({ clustered: clusteredPath, graded }, 'r3.json');
    expect(report.models[0].graphSimilarity).toBe('entailment-probability');
    // Deg by hand from the stored matrix: samples 0 2 in group 0, 1 in group 1, 3 in group 2;
    // degree of a sample = Σ_j W_ij over the 4 samples; Deg = 1 − mean degree / m; confidence 1 − Deg.
    const g = (a: number, b: number) => sim.matrix[a * 3 + b];
    const of = sim.groups as number[];
    let total = 0;
    for (const a of of) for (const b of of) total += g(a, b);
    expect(doc.questions[0].signals.degree).toBeCloseTo(total / 16, 12);
  });
});
