/**
 * `semece sample --provider in-browser` end to end, in Node with no key and no network: the tiny
 * causal model read from the repository's public/models, run through Transformers.js on
 * onnxruntime-node, written as the authors' rows; resumed from its cache; reproducible with
 * --sampling-seed; and its --help names the provider and the shipped model.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import cluster from '../../../../cli/commands/cluster.ts';
import grade from '../../../../cli/commands/grade.ts';
import score from '../../../../cli/commands/score.ts';
import { TINY_TOPICS, answerText, modalFrequencyMoments, probabilities } from '../../../../scripts/tiny-causal-lm-table.ts';

let dir: string;
const topics = TINY_TOPICS.slice(1);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-sample-local-'));
  await writeFile(join(dir, 'qs.jsonl'), topics.map((t) => JSON.stringify({ id: t.questionId, question: t.question, answer: t.gold })).join('\n') + '\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], out = 'rows.jsonl') {
  const lines: string[] = [];
  const err: string[] = [];
  const base = ['--provider', 'in-browser', '--model', 'tiny-causal-lm', '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, out)];
  return run([...base, ...args], { out: (s) => lines.push(s), err: (s) => err.push(s), env: {} }).then((code) => ({ code, out: lines, err }));
}

const rowsOf = async (file = 'rows.jsonl') => (await readFile(join(dir, file), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));

describe('semece sample --provider in-browser', () => {
  it('samples the shipped tiny model with no key: every answer one the table allows, n per question', async () => {
    const r = await cli(['--samples', '12', '--max-tokens', '16', '--sampling-seed', '7']);
    expect(r.code, r.err.join('\n')).toBe(0);
    const rows = await rowsOf();
    expect(rows.map((x) => x.id)).toEqual(topics.map((t) => t.questionId));
    rows.forEach((row, i) => {
      expect(row.n_samples).toBe(12);
      expect(row.model).toBe('tiny-causal-lm');
      for (const a of row.answer_extracted) expect(topics[i].answers.map(answerText)).toContain(a);
      for (const c of row.confidence_verbalized) expect(topics[i].confidences.map((x) => Number(x.token) / 100)).toContain(c);
      expect(row.results[0]).toMatch(/^Answer: .+\nConfidence: \d+%$/);
    });
    const summary = JSON.parse(r.out[0]);
    // A question's 12 samples are one batch: one request each.
    expect(summary.requests.done).toBe(topics.length);
    expect(summary.fetched).toBe(12 * topics.length);
    expect(summary.tokens.output).toBe(7 * 12 * topics.length);
    expect(summary.effective).toMatchObject({ n: 12, temperature: 1, maxTokens: 16 });
    expect(summary.notes).toEqual(['generated in this process with Transformers.js on onnxruntime-node (CPU)']);

    // Repeating the command asks for nothing: every sample comes from OUT.cache.jsonl.
    const again = await cli(['--samples', '12', '--max-tokens', '16', '--sampling-seed', '7']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out[0])).toMatchObject({ fetched: 0, fromCache: 12 * topics.length });
    expect(await rowsOf()).toEqual(rows);

    // The same seed into a fresh cache draws the same replies.
    const same = await cli(['--samples', '12', '--max-tokens', '16', '--sampling-seed', '7'], 'rows-2.jsonl');
    expect(same.code).toBe(0);
    expect((await rowsOf('rows-2.jsonl')).map((x) => x.results)).toEqual(rows.map((x) => x.results));
  });

  it('a complete measurement with no key, offline: sample → entailment → alias → score, Sem1 as the table implies', async () => {
    const N = 20;
    const copies = 3;
    const ids = topics.flatMap((t, k) => Array.from({ length: copies }, (_, c) => ({ id: `t${k}-${c}`, topic: t })));
    await writeFile(join(dir, 'many.jsonl'), ids.map(({ id, topic }) => JSON.stringify({ id, question: topic.question, answer: topic.gold })).join('\n') + '\n');
    const io = (lines: string[] = []) => ({ out: (x: string) => lines.push(x), err: () => {}, env: {} });
    const sampled = join(dir, 'sampled.jsonl');
    expect(await run(['--provider', 'in-browser', '--model', 'tiny-causal-lm', '--dataset', join(dir, 'many.jsonl'), '--out', sampled, '--samples', String(N), '--sampling-seed', '11'], io())).toBe(0);
    const clustered = join(dir, 'clustered.jsonl');
    expect(await cluster(['--method', 'entailment', '--model', 'tiny-nli', '--in', sampled, '--out', clustered], io())).toBe(0);
    const graded = join(dir, 'graded.jsonl');
    expect(await grade(['--method', 'alias', '--in', clustered, '--out', graded], io())).toBe(0);
    const printed: string[] = [];
    expect(await score(['--clustered', clustered, '--graded', graded], io(printed))).toBe(0);
    const doc = JSON.parse(printed.join('\n')) as { questions: { id: string; sem1: number; n_classes: number }[] };
    expect(doc.questions).toHaveLength(ids.length);
    let expected = 0;
    let variance = 0;
    for (const { topic } of ids) {
      const m = modalFrequencyMoments(probabilities(topic.answers), N);
      expected += m.mean / ids.length;
      variance += m.variance / ids.length ** 2;
    }
    const mean = doc.questions.reduce((s, q) => s + q.sem1, 0) / doc.questions.length;
    expect(Math.abs(mean - expected)).toBeLessThanOrEqual(4.5 * Math.sqrt(variance));
    for (const q of doc.questions) expect(q.n_classes).toBeLessThanOrEqual(2);
  });

  it('--help names the provider id and the shipped model', async () => {
    const out: string[] = [];
    expect(await run(['--help'], { out: (s) => out.push(s), err: () => {}, env: {} })).toBe(0);
    expect(out.join('\n')).toMatch(/--provider in-browser/);
    expect(out.join('\n')).toMatch(/tiny-causal-lm/);
    expect(out.join('\n')).toMatch(/HuggingFaceTB\/SmolLM2-135M-Instruct/);
  });

  it('a model that is not there stops the run with its name, and asks the hub for nothing', async () => {
    const r = await cli(['--samples', '2', '--model', 'no-such-model', '--model-dir', dir]);
    expect(r.code, r.err.join('\n')).toBe(1);
    expect(r.err.join('\n')).toMatch(/no-such-model/);
  });

  it('the in-browser options are refused for an HTTP provider', async () => {
    const err: string[] = [];
    const code = await run(['--provider', 'openai', '--model', 'x', '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, 'o.jsonl'), '--sampling-seed', '1'], { out: () => {}, err: (s) => err.push(s), env: {} });
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/--sampling-seed .*in-browser only/);
  });
});
