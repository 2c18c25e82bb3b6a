/**
 * `semece sample --batch … --adaptive` against files and the loopback mock's batch services: each
 * request file is one round of the stopping rule (write, read, write again), and submit runs the
 * rounds as successive batches until the rule has stopped every question; no slot is asked twice.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import { MockProviderServer } from '../../../mock/provider-server.ts';
import { successLine } from '../../batch/fixtures.ts';
import { DEFAULT_ADAPTIVE_RULE, planAdaptive } from '../../../../src/core/adaptive-rule.ts';
import { answerKey } from '../../../../src/pipeline/adaptive-slots.ts';

const KEY = 'sk-zq81xv72wp93-batch-rounds';
const MAX = 40;
const QS = [
  { id: 'fr', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'col', question: 'Which colour is the flag?', answer: 'Red' },
];
let mock: MockProviderServer;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-batch-adaptive-'));
  await writeFile(join(dir, 'qs.jsonl'), QS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  mock = await MockProviderServer.start({
    apiKey: KEY,
    questions: [
      { match: QS[0].question, id: 'fr', answers: { Paris: 1 } },
      // Five colours, equally likely: the first round disagrees (the mock's draws are seeded).
      { match: QS[1].question, id: 'col', answers: { Red: 1, Blue: 1, Green: 1, White: 1, Black: 1 } },
    ],
  });
});
afterEach(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const base = ['--provider', 'openai', '--model', 'gpt-4o-mini', '--base-url', `${mock.url}/v1`, '--dataset', join(dir, 'qs.jsonl'), '--samples', String(MAX), '--poll-interval', '1', '--adaptive'];
  const code = await run([...base, ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env: { OPENAI_API_KEY: KEY } });
  return { code, out, err, json: out.length ? JSON.parse(out.at(-1)!) : undefined };
}
const rowsIn = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
const linesIn = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));

/** The rule's plan over a row's answers: what it used, and its rounds. */
const planOf = (answers: string[]) => planAdaptive(answers.map(answerKey), { ...DEFAULT_ADAPTIVE_RULE, maxSamples: MAX });

describe('semece sample --batch --adaptive', () => {
  it('submit: the rounds are successive batches; easy questions stop early, split ones reach the maximum', async () => {
    const out = join(dir, 'rows.jsonl');
    const r = await cli(['--batch', 'submit', '--out', out]);
    expect(r.code, r.err.join('\n')).toBe(0);
    const rows = await rowsIn(out);
    const [fr, col] = rows;
    const frPlan = planOf(fr.answer_extracted);
    const colPlan = planOf(col.answer_extracted);
    expect(new Set(col.answer_extracted.slice(0, DEFAULT_ADAPTIVE_RULE.firstRound)).size).toBeGreaterThan(1);
    for (const [row, plan] of [[fr, frPlan], [col, colPlan]] as const) {
      expect(plan.next).toEqual({ phase: 'done' });
      expect(row.n_samples).toBe(plan.selection + plan.heldOut);
      expect(row.selection_samples).toBe(plan.selection);
    }
    expect(fr.n_samples).toBeLessThan(MAX);
    expect(col.n_samples).toBe(MAX);
    // One batch per round of the question with the most rounds; nothing served past the rule.
    expect(r.json.batches.length).toBe(Math.max(frPlan.rounds.length, colPlan.rounds.length));
    expect(mock.stats().served).toEqual({ fr: fr.n_samples, col: MAX });
  });

  it('write → read → write: each request file is the current round, then nothing is left', async () => {
    const out = join(dir, 'rows.jsonl');
    const first = await cli(['--batch', 'write', '--out-requests', join(dir, 'r1.jsonl'), '--out', out]);
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({ requests: 2, cached: 0, stopped: 0 });
    const r1 = await linesIn(join(dir, 'r1.jsonl'));
    expect(r1.map((l) => l.body.n)).toEqual([DEFAULT_ADAPTIVE_RULE.firstRound, DEFAULT_ADAPTIVE_RULE.firstRound]);
    expect(first.err.join('\n')).toMatch(/adaptive: this is one round \(0 of 2 question\(s\) stopped\)/);
    // Results: France agrees, the flag does not.
    const answer = (l: { body: { messages: { content: string }[] } }, k: number) => (JSON.stringify(l.body.messages).includes('France') ? 'Paris' : ['Red', 'Blue'][k % 2]);
    const reply = (l: { custom_id: string; body: { n: number; messages: { content: string }[] } }) => successLine('openai', l.custom_id, Array.from({ length: l.body.n }, (_, k) => `Answer: ${answer(l, k)}\nConfidence: 70%`));
    await writeFile(join(dir, 'o1.jsonl'), r1.map(reply).join('\n') + '\n');
    const read1 = await cli(['--batch', 'read', '--results', join(dir, 'o1.jsonl'), '--out', out]);
    expect(read1.code).toBe(3);
    expect(read1.err.join('\n')).toMatch(/of the current round still to request.*--batch write again/);

    const second = await cli(['--batch', 'write', '--out-requests', join(dir, 'r2.jsonl'), '--out', out]);
    const r2 = await linesIn(join(dir, 'r2.jsonl'));
    const frPlan = planOf(Array.from({ length: MAX }, () => 'Paris'));
    const colPlan = planOf(Array.from({ length: MAX }, (_, k) => ['Red', 'Blue'][k % 2]));
    const sizes = Object.fromEntries(r2.map((l) => [JSON.stringify(l.body.messages).includes('France') ? 'fr' : 'col', l.body.n]));
    expect(sizes).toEqual({ fr: frPlan.rounds[1].size, col: colPlan.rounds[1].size });
    expect(second.json).toMatchObject({ cached: 2 * DEFAULT_ADAPTIVE_RULE.firstRound });
    await writeFile(join(dir, 'o2.jsonl'), r2.map(reply).join('\n') + '\n');
    // Rounds until the rule stops both (the defaults take two: selection, then held-out).
    let round = 2;
    let read = await cli(['--batch', 'read', '--results', join(dir, 'o2.jsonl'), '--out', out]);
    while (read.code === 3 && round < 10) {
      round++;
      await cli(['--batch', 'write', '--out-requests', join(dir, `r${round}.jsonl`), '--out', out]);
      const lines = await linesIn(join(dir, `r${round}.jsonl`));
      await writeFile(join(dir, `o${round}.jsonl`), lines.map(reply).join('\n') + '\n');
      read = await cli(['--batch', 'read', '--results', join(dir, `o${round}.jsonl`), '--out', out]);
    }
    expect(read.code).toBe(0);
    expect(round).toBe(Math.max(frPlan.rounds.length, colPlan.rounds.length));
    const rows = await rowsIn(out);
    expect(rows.map((x) => [x.id, x.n_samples, x.selection_samples])).toEqual([
      ['fr', frPlan.selection + frPlan.heldOut, frPlan.selection],
      ['col', colPlan.selection + colPlan.heldOut, colPlan.selection],
    ]);
    const done = await cli(['--batch', 'write', '--out-requests', join(dir, 'rlast.jsonl'), '--out', out]);
    expect(done.json).toMatchObject({ requests: 0, files: [], stopped: 2 });
    expect(done.err.join('\n')).toMatch(/the rule has stopped every question/);
  });
});
