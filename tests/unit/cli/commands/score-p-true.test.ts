/**
 * `semece score` reads p(True) from the rows (`semece sample --p-true` writes p_true and
 * p_true_method): a probability, so it is scored by default with its raw ECE beside its ranking
 * metrics, and the report keeps per question how it was read (the p_true_method field).
 *
 *   q1 correct    p_true 0.9 (logprobs)     q3 incorrect  p_true 0.7 (sampled)
 *   q2 correct    p_true 0.6 (logprobs)     q4 incorrect  p_true 0.2 (sampled)
 * AUROC: of the four (correct, incorrect) pairs, 0.6 < 0.7 is the one out of order: 3/4.
 * ECE (10 bins, one question each): (|1 − 0.9| + |1 − 0.6| + 0.7 + 0.2) / 4 = 0.35.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import run from '../../../../cli/commands/score';
import { parseReport } from '../../../../src/formats/report-import';

const P = [0.9, 0.6, 0.7, 0.2];
const METHOD = ['logprobs', 'logprobs', 'sampled', 'sampled'];
const Y = [1, 1, 0, 0];

let dir: string;
async function files(pTrue: (number | null)[]) {
  const clustered = join(dir, `c-${pTrue.join('-')}.jsonl`);
  const graded = join(dir, 'graded.jsonl');
  const rows = pTrue.map((p, i) =>
    JSON.stringify({
      id: `q${i + 1}`, question: `q${i + 1}?`, gold_answer: 'paris', model: 'hand', n_samples: 2,
      results: ['Answer: paris', 'Answer: lyon'], answer_extracted: ['paris', 'lyon'], confidence_verbalized: [0.9, 0.9],
      n_clusters: 2, cluster_labels: ['paris', 'lyon'], cluster_assignments: [0, 1], cluster_sizes: [1, 1], modal_cluster: 0, modal_cluster_label: 'paris',
      p_true: p, p_true_method: METHOD[i],
    }),
  );
  await writeFile(clustered, rows.join('\n') + '\n');
  await writeFile(graded, Y.map((y, i) => JSON.stringify({ id: `q${i + 1}`, grade: y ? 'CORRECT' : 'INCORRECT', Y: y })).join('\n') + '\n');
  return { clustered, graded };
}

async function score(f: { clustered: string; graded: string }, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(['--clustered', f.clustered, '--graded', f.graded, '--B', '50', ...args], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, doc: out.length ? JSON.parse(out.join('')) : undefined, stderr: err.join('\n') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-ptrue-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('p_true in semece score', () => {
  test('scored by default as a probability: its values, AUROC and raw ECE by hand; the report states how each was read', async () => {
    const reportFile = join(dir, 'report.json');
    const { code, doc } = await score(await files(P), '--report', reportFile);
    expect(code).toBe(0);
    expect(doc.questions.map((q: { signals: Record<string, number> }) => q.signals.p_true)).toEqual(P);
    expect(doc.metrics.auroc.p_true).toBe(0.75);
    expect(doc.metrics.ece.p_true).toBeCloseTo(0.35, 14);
    expect(doc.metrics.prr).toHaveProperty('p_true');
    const parsed = parseReport(await readFile(reportFile, 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const qs = parsed.value.models[0].questions;
    expect(qs.map((q) => q.signals?.p_true)).toEqual(P);
    expect(qs.map((q) => q.fields?.p_true_method)).toEqual(METHOD);
  });

  test('--signals p_true asks for it alone; a question without a verdict (null) leaves it unscored, said when asked', async () => {
    const only = await score(await files(P), '--signals', 'p_true');
    expect(Object.keys(only.doc.metrics.auroc)).toEqual(['sem1', 'sem2', 'verbalized', 'p_true']);
    const partial = await files([0.9, 0.6, 0.7, null]);
    const asked = await score(partial, '--signals', 'p_true');
    expect(asked.code).toBe(0);
    expect(asked.doc.metrics.auroc).not.toHaveProperty('p_true');
    expect(asked.stderr).toContain('p_true is not scored');
    expect((await score(partial)).stderr).not.toContain('p_true');
  });
});
