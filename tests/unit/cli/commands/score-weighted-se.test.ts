/**
 * `semece score` with sequence_logprobs in the rows: semantic_entropy_weighted per question is
 * exp(−H) of Farquhar et al.'s likelihood-weighted semantic entropy, a score that is not a
 * probability (ranking metrics and recalibrated ECE, no raw ECE), scored only where every question
 * has one log-probability per sample.
 *
 *   q1 correct    classes 0 0 1, sequence probabilities ½ ¼ ¼  → p = (¾, ¼), exp(−H) = ¾^¾ · ¼^¼
 *   q2 incorrect  classes 0 1 2, sequence probabilities equal  → p = (⅓, ⅓, ⅓), exp(−H) = ⅓
 *   q3 correct    classes 0 0 0                                → exp(−H) = 1
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import run from '../../../../cli/commands/score';

const Q = [
  { classes: [0, 0, 1], ll: [Math.log(0.5), Math.log(0.25), Math.log(0.25)], Y: 1 },
  { classes: [0, 1, 2], ll: [-2, -2, -2], Y: 0 },
  { classes: [0, 0, 0], ll: [-1, -4, -0.5], Y: 1 },
];
const HAND = [0.75 ** 0.75 * 0.25 ** 0.25, 1 / 3, 1];

let dir: string;
async function files(withLogprobs: (i: number) => boolean) {
  const clustered = join(dir, `c-${Q.map((_, i) => (withLogprobs(i) ? 1 : 0)).join('')}.jsonl`);
  const graded = join(dir, 'graded.jsonl');
  const rows = Q.map((q, i) => {
    const K = Math.max(...q.classes) + 1;
    const labels = Array.from({ length: K }, (_, k) => `a${k}`);
    return JSON.stringify({
      id: `q${i + 1}`, question: `q${i + 1}?`, gold_answer: 'a0', model: 'hand', n_samples: 3,
      results: q.classes.map((c) => `Answer: a${c}`), answer_extracted: q.classes.map((c) => `a${c}`), confidence_verbalized: [0.5, 0.5, 0.5],
      n_clusters: K, cluster_labels: labels, cluster_assignments: q.classes, cluster_sizes: labels.map((_, k) => q.classes.filter((c) => c === k).length),
      modal_cluster: 0, modal_cluster_label: 'a0', ...(withLogprobs(i) ? { sequence_logprobs: q.ll } : {}),
    });
  });
  await writeFile(clustered, rows.join('\n') + '\n');
  await writeFile(graded, Q.map((q, i) => JSON.stringify({ id: `q${i + 1}`, grade: q.Y ? 'CORRECT' : 'INCORRECT', Y: q.Y })).join('\n') + '\n');
  return { clustered, graded };
}
async function score(f: { clustered: string; graded: string }, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(['--clustered', f.clustered, '--graded', f.graded, '--B', '20', ...args], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, doc: out.length ? JSON.parse(out.join('')) : undefined, stderr: err.join('\n') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-wse-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('semantic_entropy_weighted in semece score', () => {
  test('the hand values; ranked and recalibrated, never given a raw ECE', async () => {
    const { code, doc } = await score(await files(() => true), '--signals', 'semantic_entropy_weighted');
    expect(code).toBe(0);
    doc.questions.forEach((q: { signals: Record<string, number> }, i: number) => expect(q.signals.semantic_entropy_weighted).toBeCloseTo(HAND[i], 14));
    // The two correct questions rank above the incorrect one.
    expect(doc.metrics.auroc.semantic_entropy_weighted).toBe(1);
    expect(doc.metrics.ece_recalibrated).toHaveProperty('semantic_entropy_weighted');
    expect(doc.metrics.ece).not.toHaveProperty('semantic_entropy_weighted');
    // Not a probability, so not among the default signals.
    expect((await score(await files(() => true))).doc.metrics.auroc).not.toHaveProperty('semantic_entropy_weighted');
  });

  test('a question without its samples’ log-probabilities leaves it unscored, said when asked', async () => {
    const { doc, stderr } = await score(await files((i) => i !== 1), '--signals', 'semantic_entropy_weighted');
    expect(doc.metrics.auroc).not.toHaveProperty('semantic_entropy_weighted');
    expect(stderr).toContain('semantic_entropy_weighted is not scored');
  });
});
