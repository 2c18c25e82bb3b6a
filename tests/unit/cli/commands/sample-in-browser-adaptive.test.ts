/**
 * `semece sample --provider in-browser --adaptive`: the in-page model (here in Node, the tiny
 * causal model from public/models) sampled in rounds, each round the rows of one batch (or of
 * several, past the replies one batch generates): every row a finished plan of the rule over its
 * own answers, each round's requests as many as its size needs.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import { TINY_TOPICS } from '../../../../scripts/tiny-causal-lm-table.ts';
import { DEFAULT_ADAPTIVE_RULE, planAdaptive } from '../../../../src/core/adaptive-rule.ts';
import { answerKey } from '../../../../src/pipeline/adaptive-slots.ts';
import { MAX_REPLIES_PER_CALL } from '../../../../src/providers/in-browser/models.ts';

const MAX = 30;
let dir: string;
const topics = TINY_TOPICS.slice(1);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-sample-local-adaptive-'));
  await writeFile(join(dir, 'qs.jsonl'), topics.map((t) => JSON.stringify({ id: t.questionId, question: t.question, answer: t.gold })).join('\n') + '\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('samples the in-page model in rounds: each row a finished plan over its own answers, a batch per round', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const args = ['--provider', 'in-browser', '--model', 'tiny-causal-lm', '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, 'rows.jsonl'), '--samples', String(MAX), '--adaptive', '--max-tokens', '16', '--sampling-seed', '7'];
  const code = await run(args, { out: (s) => out.push(s), err: (s) => err.push(s), env: {} });
  expect(code, err.join('\n')).toBe(0);
  const rows = (await readFile(join(dir, 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  let requests = 0;
  for (const row of rows) {
    const plan = planAdaptive(row.answer_extracted.map(answerKey), { ...DEFAULT_ADAPTIVE_RULE, maxSamples: MAX });
    expect(plan.next, row.id).toEqual({ phase: 'done' });
    expect(row.n_samples, row.id).toBe(plan.selection + plan.heldOut);
    expect(row.selection_samples, row.id).toBe(plan.selection);
    for (const r of plan.rounds) requests += Math.ceil(r.size / MAX_REPLIES_PER_CALL);
  }
  const summary = JSON.parse(out[0]);
  expect(summary.requests.done).toBe(requests);
  expect(summary.fetched).toBe(rows.reduce((s, r) => s + r.n_samples, 0));
});
